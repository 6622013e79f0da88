/**
 * `GET /scorecards/{card_id}`: the card's page, the link a run against this server prints at its end
 * (as the hosted site has one per card). A small HTML page of the card's scores per game and its totals,
 * read from whichever backend holds the card: a browser carries no API key and no affinity cookie.
 */
import type { FastifyInstance } from 'fastify';
import type { Scorecard } from '../../protocol/index.ts';
import type { ReferenceService } from '../referenceService.ts';

export const SCORECARD_PAGE_PATH = '/scorecards/:card_id';

export function installScorecardPage(app: FastifyInstance, backends: readonly ReferenceService[]): void {
  app.get(SCORECARD_PAGE_PATH, async (request, reply) => {
    const { card_id: cardId } = request.params as { card_id: string };
    const card = backends.map((backend) => backend.publicScorecard(cardId)).find((found) => found !== undefined);
    reply.type('text/html; charset=utf-8');
    if (card === undefined) {
      reply.code(404);
      return page(
        'Scorecard not found',
        `<p>No scorecard ${escapeHtml(cardId)} here: it never existed, or it was forgotten after its retention, or it is an open competition card.</p>`,
      );
    }
    return page(`Scorecard ${card.card_id}`, cardBody(card));
  });
}

function cardBody(card: Scorecard): string {
  const state = card.published_at ? `closed ${card.published_at}` : `open since ${card.open_at ?? '?'}`;
  const rows = card.environments.map(
    (env) =>
      `<tr data-game="${escapeHtml(env.id)}"><td>${escapeHtml(env.id)}</td><td class="num">${env.score.toFixed(2)}</td><td class="num">${env.levels_completed}/${env.level_count}</td><td class="num">${env.actions}</td><td class="num">${env.resets}</td><td class="num">${env.runs.length}</td><td>${env.completed ? 'yes' : 'no'}</td></tr>`,
  );
  const total = `<tr class="total" data-game="total"><td>total</td><td class="num">${card.score.toFixed(2)}</td><td class="num">${card.total_levels_completed}/${card.total_levels}</td><td class="num">${card.total_actions}</td><td></td><td></td><td>${card.total_environments_completed} of ${card.total_environments}</td></tr>`;
  return [
    `<p>${escapeHtml(state)}${card.user_name ? ` · ${escapeHtml(card.user_name)}` : ''}${card.tags?.length ? ` · tags: ${escapeHtml(card.tags.join(', '))}` : ''}</p>`,
    '<table><thead><tr><th>game</th><th>score</th><th>levels</th><th>actions</th><th>resets</th><th>plays</th><th>completed</th></tr></thead>',
    `<tbody>${rows.join('')}${total}</tbody></table>`,
    '<p>Score per game: its best play; total: the mean over the games (docs/protocol.md §5).</p>',
  ].join('\n');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · arcbench serve</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}.num{text-align:right}.total{font-weight:bold}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
