/**
 * The runner against the official toolkit's own server (docs/protocol.md §7a), over its test games: its game
 * list has no baselines, its open competition cards cannot be read, and a won game with more levels than
 * baselines (bt33: 5 levels, 3 baselines) closes with baselines of -1 and a score of 0, as arcbench scores it. The run still closes its cards,
 * and scores locally wherever a card gave the baselines, the close answer included.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { verifyRunFolder } from '../src/runner/results/verifyRun.ts';
import { startOfficialToolkitServer, type OfficialToolkitServer } from './support/officialToolkitServer.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-toolkit-official-'));
const BT11 = 'bt11-fd9df0622a1a';
const BT33 = 'bt33-a7c3f9d18b4e';

let official: OfficialToolkitServer;
let competition: OfficialToolkitServer;
beforeAll(async () => {
  [official, competition] = await Promise.all([startOfficialToolkitServer(), startOfficialToolkitServer({ competition: true })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([official?.stop(), competition?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Completes bt11's first level; clicks bt33's left button `bt33Clicks` times (72 win it, 28 finish its 3 levels with baselines). */
function agentFile(bt33Clicks: number): string {
  const file = join(dir, `clicker-${bt33Clicks}.ts`);
  writeFileSync(
    file,
    `import { defineAgent, action, click, stop } from 'arcbench';
const bt33 = [...Array(28).fill([0, 0]), ...Array(20).fill([12, 12]), ...Array(24).fill([8, 8])].slice(0, ${bt33Clicks});
export default defineAgent({
  name: 'clicker',
  create: ({ game }) => ({
    act: (_frame, { step }) => {
      if (game.game_id.startsWith('bt33')) return step < bt33.length ? click(bt33[step][0], bt33[step][1]) : stop('done');
      return step < 4 ? action(3) : stop('done');
    },
  }),
});
`,
  );
  return file;
}

async function run(name: string, url: string, bt33Clicks: number, competitionMode = false, extra = '') {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}\ntarget: { url: "${url}", api_key: k }\nagents: [{ use: ${agentFile(bt33Clicks)} }]\n` +
      `episodes: 1\nbudgets: { max_actions: 100 }\nrecordings: false\n${competitionMode ? 'scorecard: { competition_mode: true }\n' : ''}${extra}`,
  );
  const out = join(dir, name);
  const result = await runExperiment(await loadExperiment(file), { out });
  return { ...result, out, tableMd: readFileSync(join(out, 'table.md'), 'utf8') };
}

describe('the runner against the official toolkit server', () => {
  it('closes a card whose won game has more levels than baselines (-1 in the close answer), and scores it as the service does', async () => {
    const { report } = await run('won', official.url, 72);
    expect(report.status).toBe('completed');
    expect(report.cards.map((card) => [card.state, card.close_error])).toEqual([['closed', null]]);
    // The toolkit's server has no scorecard pages: no link to one.
    expect(report.agents[0]!.scorecard_url).toBeNull();
    const closed = report.cards[0]!.scorecard!.environments!.find((env) => env.id === BT33)!;
    expect(closed.runs![0]!.level_baseline_actions).toEqual([-1, -1, -1, -1, -1]);
    // The baselines were read from the open card after each first RESET; a run won past them scores 0, by
    // the official scorecard code and by arcbench's (docs/protocol.md §5): local and service agree.
    const agent = report.agents[0]!;
    expect(agent.local_score.environments.find((env) => env.id === BT11)!.score).toBeCloseTo(100 / 15, 9);
    expect(agent.local_score.environments.find((env) => env.id === BT33)!.score).toBe(0);
    expect(agent.score_differences).toEqual([]);
  });

  it('in competition mode scores from the close answer’s baselines, and says nothing false about where they are', async () => {
    const { report, tableMd, out } = await run('competition', competition.url, 28, true);
    expect(report.status).toBe('completed');
    expect(report.games_without_baselines).toEqual([]);
    expect(report.unknown_scores).toBeUndefined();
    expect(tableMd).not.toMatch(/unknown/);
    const agent = report.agents[0]!;
    const service = agent.scorecard!;
    for (const game of [BT11, BT33]) {
      const local = agent.local_score.environments.find((env) => env.id === game)!;
      expect(local.score, game).toBeCloseTo(service.environments!.find((env) => env.id === game)!.score!, 9);
    }
    expect(agent.local_score.score).toBeCloseTo(service.score!, 9);
    // verify agrees: each line as written, run.json as scored with the close answer's baselines.
    expect((await verifyRunFolder(out)).problems).toEqual([]);
    // Every reader of the folder sees them too.
    const episodes = readRunFolder(out).episodes;
    expect(episodes.map((e) => [e.game_id, e.baselines_known, e.baselines])).toEqual(
      expect.arrayContaining([
        [BT11, true, [4, 8, 16, 20, 24]],
        [BT33, true, [10, 15, 20]],
      ]),
    );
  });

  it('in competition mode takes a RESET the server did not play (a level not begun answers the frame as it is) and counts as it counts', async () => {
    const fresh = await startOfficialToolkitServer({ competition: true });
    onTestFinished(() => fresh.stop());
    const file = join(dir, 'resetter.ts');
    // bt11's first level takes four ACTION3; a RESET right after it is one of a level not begun.
    writeFileSync(
      file,
      `import { defineAgent, action, reset, stop } from 'arcbench';
export default defineAgent({
  name: 'resetter',
  create: () => ({ act: (_frame, { step }) => (step < 4 ? action(3) : step === 4 ? reset() : step < 7 ? action(3) : stop('done')) }),
});
`,
    );
    const yaml = join(dir, 'resetter.yaml');
    writeFileSync(
      yaml,
      `name: resetter\ntarget: { url: "${fresh.url}", api_key: k }\nagents: [{ use: ${file} }]\ngames: [bt11]\n` +
        'episodes: 1\nbudgets: { max_actions: 100 }\nrecordings: false\nscorecard: { competition_mode: true }\n',
    );
    const result = await runExperiment(await loadExperiment(yaml), { out: join(dir, 'resetter') });
    const [episode] = result.episodes;
    expect(episode!.error).toBeUndefined();
    expect(episode!.outcome).toBe('agent_stop');
    const agent = result.report.agents[0]!;
    expect(agent.score_differences).toEqual([]);
    const service = agent.scorecard!.environments!.find((env) => env.id === BT11)!;
    expect([episode!.actions, episode!.levels_completed]).toEqual([service.actions, service.levels_completed]);
  });

  it('in competition mode scores a game no episode played against the close answer’s baselines, as the service does', async () => {
    // The toolkit's competition server opens one card in its life: this run needs one of its own.
    const fresh = await startOfficialToolkitServer({ competition: true });
    onTestFinished(() => fresh.stop());
    const { report } = await run('unplayed', fresh.url, 0, true, 'games: [bt11]\n');
    const agent = report.agents[0]!;
    // The toolkit makes every game it offers part of the card at close; bt33 enters with 0.
    expect(agent.scorecard!.environments!.map((env) => env.id).sort()).toEqual([BT11, BT33]);
    expect(agent.score_differences).toEqual([]);
    expect(agent.local_score.score).toBeCloseTo(agent.scorecard!.score!, 9);
    expect(agent.local_score.environments.find((env) => env.id === BT33)).toMatchObject({ score: 0, level_count: 3 });
  });
});
