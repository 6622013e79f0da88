// `arcbench export --format leaderboard`: refused for a run whose cards are not on the hosted service
// (in-process, or our own server even with its pages named after the hosted site); for a run that was
// on the hosted service, one entry per agent with its scorecard link, score and cost. No test reaches
// the hosted service, so that run is our server's run with run.json saying where a hosted run plays.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArcbench } from './support/arcbenchProcess.ts';
import { tempDir } from './support/tempDir.ts';

const EXPERIMENT = (target: string) => `
name: board
target: ${target}
games: [crat]
agents: [{ use: random }]
budgets: { max_actions: 10 }
scorecard: { page_root: https://three.arcprize.org }
`;

async function runIn(dir: string, target: string): Promise<string> {
  writeFileSync(join(dir, 'exp.yaml'), EXPERIMENT(target));
  const out = join(dir, 'run');
  const ran = await runArcbench(['run', 'exp.yaml', '--out', out], dir);
  expect(ran.code, ran.stderr).toBe(0);
  return out;
}

describe('arcbench export --format leaderboard', () => {
  it('refuses a run played elsewhere than the hosted service, saying where it played', async () => {
    const dir = tempDir('board-local');
    const out = await runIn(dir, 'reference');
    const refused = await runArcbench(['export', out, '--format', 'leaderboard'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'the leaderboard takes runs against the hosted service (https://three.arcprize.org) only, and this run played on in-process',
    );
  });

  it('writes one entry per agent with its scorecard link, score and cost for a hosted run', async () => {
    const dir = tempDir('board-hosted');
    const out = await runIn(dir, '{ server: { dialect: arcbench } }');
    const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    for (const attempt of runJson.attempts) Object.assign(attempt, { target: 'https://three.arcprize.org', target_kind: 'url' });
    writeFileSync(join(out, 'run.json'), JSON.stringify(runJson));
    const exported = await runArcbench(['export', out, '--format', 'leaderboard', '--out', join(dir, 'submission.json')], dir);
    expect(exported.code, exported.stderr).toBe(0);
    const submission = JSON.parse(readFileSync(join(dir, 'submission.json'), 'utf8'));
    const card = runJson.agents[0];
    expect(submission.entries).toEqual([
      expect.objectContaining({
        agent: 'random',
        scorecard_url: `https://three.arcprize.org/scorecards/${card.card_id}`,
        score: card.scorecard.score,
        // One episode a game: the card's score is the best of 1, and the mean beside it is the table's.
        score_is_best_of: 1,
        mean_episode_score: runJson.table.find((row: { game: string }) => row.game === 'total').mean_score,
        cost_usd: 0,
        games: 1,
        tokens: { input: 0, cached_input: 0, output: 0, reasoning: 0 },
      }),
    ]);
    expect(submission.harness.name).toBe('arcbench');
  });
});
