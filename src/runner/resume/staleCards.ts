/**
 * The cards earlier attempts left open (their process died, or a close failed). Where the target still
 * has them (a service URL), they are closed now with the affinity cookies saved when they opened; where
 * it cannot (the in-process service, or the server a run started, ended with its process), they are
 * marked `lost` and the user is told so in plain words. Nothing here throws: a card that cannot be
 * closed is recorded, and the run goes on.
 */
import type { Logger } from 'pino';
import { ApiError } from '../../protocol/index.ts';
import type { AttemptEntry, CardEntry } from '../../runfolder/runReport.ts';
import type { OpenTarget } from '../targets.ts';

function lostWithProcess(card: CardEntry, kind: AttemptEntry['target_kind']): string {
  const where = kind === 'reference' ? 'the in-process service' : 'the server the run started';
  return `card ${card.card_id} (${card.agent}, attempt ${card.attempt}) lived in ${where}, which ended with that attempt's process; no service holds it any more, so there is nothing to close`;
}

/** Closes one card of a dead attempt on the service; returns the sentence for the user. */
async function closeOnService(card: CardEntry, target: OpenTarget, attempt: number): Promise<string> {
  const { transport } = target;
  transport.adoptAffinity?.(card.card_id, card.affinity);
  const at = new Date().toISOString();
  try {
    const scorecard = await transport.closeScorecard(card.card_id);
    Object.assign(card, { state: 'closed', closed_at: at, closed_by_attempt: attempt, scorecard, close_error: null } satisfies Partial<CardEntry>);
    return `closed card ${card.card_id} (${card.agent}) that attempt ${card.attempt} left open`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      // Closed cards stay readable on our server: the dead process may have closed it without recording so.
      // The failed close dropped the card's cookies; the read needs them to reach the card's backend.
      transport.adoptAffinity?.(card.card_id, card.affinity);
      const scorecard = await transport.getScorecard(card.card_id).catch(() => null);
      if (scorecard?.published_at != null) {
        Object.assign(card, {
          state: 'closed',
          closed_at: scorecard.published_at,
          closed_by_attempt: attempt,
          scorecard,
          close_error: null,
        } satisfies Partial<CardEntry>);
        return `card ${card.card_id} (${card.agent}) of attempt ${card.attempt} was already closed; its scorecard is now in run.json`;
      }
      const why = `the service no longer knows card ${card.card_id} (${card.agent}, attempt ${card.attempt}): it expired, or its backend is gone`;
      Object.assign(card, { state: 'lost', closed_by_attempt: attempt, close_error: why } satisfies Partial<CardEntry>);
      return why;
    }
    const why = `could not close card ${card.card_id} (${card.agent}, attempt ${card.attempt}): ${(error as Error).message}; a later resume tries again`;
    Object.assign(card, { state: 'close_failed', close_error: why } satisfies Partial<CardEntry>);
    return why;
  }
}

/**
 * Settles every open or failed card of earlier attempts, changing the entries in place; returns one
 * sentence per card for run.log and the terminal.
 */
export async function settleStaleCards(
  cards: CardEntry[],
  attempts: readonly AttemptEntry[],
  target: OpenTarget,
  attempt: number,
  logger: Logger,
): Promise<string[]> {
  const notes: string[] = [];
  const kindOf = new Map(attempts.map((a) => [a.attempt, a.target_kind]));
  for (const card of cards) {
    if (card.state !== 'open' && card.state !== 'close_failed') continue;
    const kind = kindOf.get(card.attempt) ?? 'url';
    let note: string;
    if (kind !== 'url') {
      note = lostWithProcess(card, kind);
      Object.assign(card, { state: 'lost', closed_by_attempt: attempt, close_error: note } satisfies Partial<CardEntry>);
    } else if (card.target !== target.transport.target) {
      note = `card ${card.card_id} (${card.agent}, attempt ${card.attempt}) is on ${card.target}, and this attempt plays on ${target.transport.target}; close it there`;
    } else {
      note = await closeOnService(card, target, attempt);
    }
    logger.warn({ card_id: card.card_id, agent: card.agent, attempt: card.attempt, state: card.state }, note);
    notes.push(note);
  }
  return notes;
}
