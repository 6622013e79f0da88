/**
 * The runner against a service as sparse as the official toolkit's server (docs/protocol.md §7a; issue 10, points 2
 * and 3), emulated by `dialect: toolkit`: its games carry no baselines, its run entries no id or counts,
 * its frames always say `full_reset: false`. Full resets still start runs as the service counts them,
 * baselines come from the scorecard after a game's first RESET, and where they stay unknown the run
 * says so and refuses per-level budgets.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { gameCatalog } from '../src/games/catalog.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { RunLedger } from '../src/episode/runLedger.ts';
import { compareRuns } from '../src/analysis/compareRuns.ts';
import { buildReportData } from '../src/report/reportData.ts';
import { readRunFolderSnapshot } from '../src/runfolder/folderSnapshot.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runEpisodesOfFolder } from '../src/analysis/runEpisodes.ts';
import { readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { readRunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import type { FrameResponse } from '../src/protocol/index.ts';
import { startServer } from '../src/reference/server/index.ts';
import { startRewritingProxy } from './support/rewritingProxy.ts';
import { serviceWithoutBaselines } from './support/serviceWithoutBaselines.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-toolkit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const crat = gameCatalog().find((game) => game.info.slug === 'crat')!;

/** A plugin that plays a fixed script of decisions, then stops; it records the baselines it was given. */
function scriptedAgent(name: string, script: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { defineAgent, action, reset, stop } from 'arcbench';
const script = ${script};
export default defineAgent({
  name: '${name}',
  create: ({ game }) => ({
    act: (_frame, { step }) => (step < script.length ? (script[step] === 0 ? reset() : action(script[step])) : stop('script done', { baselines: game.baseline_actions ?? null })),
  }),
});
`,
  );
  return file;
}

async function run(name: string, yaml: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\ngames: [crat]\nrecordings: false\n${yaml}`);
  const result = await runExperiment(await loadExperiment(file), { out: join(dir, name) });
  return { ...result, tableMd: readFileSync(join(dir, name, 'table.md'), 'utf8') };
}

const frame = (fields: Partial<FrameResponse>) => ({ guid: 'g', levels_completed: 0, state: 'NOT_FINISHED', full_reset: false, ...fields }) as FrameResponse;

describe('against the toolkit dialect', () => {
  it('counts a RESET right after a level began as a full reset, though the answer says full_reset: false', () => {
    const ledger = new RunLedger(() => 0);
    ledger.recordReset(frame({}));
    ledger.recordAction(frame({}));
    ledger.recordReset(frame({})); // an action on the level: a level reset, counted
    ledger.recordReset(frame({})); // none since: a full reset, a new run
    expect(ledger.recordedRuns().map((r) => [r.actions, r.resets])).toEqual([
      [2, 1],
      [0, 0],
    ]);
    const competition = new RunLedger(() => 0, false);
    competition.recordReset(frame({}));
    competition.recordReset(frame({})); // competition: every RESET of a session is a level reset
    expect(competition.recordedRuns().map((r) => [r.actions, r.resets])).toEqual([[1, 1]]);
  });

  it('plays full and level resets as the service counts them, and scores as the service does', async () => {
    const agent = scriptedAgent('resetter', '[1, 0, 0, 2, 2, 0, 3]');
    const { report, episodes } = await run('resets', `target: { server: { backends: 2, dialect: toolkit } }\nagents: [{ use: ${agent} }]\n`);
    expect(episodes[0]!.runs.map((r) => r.actions)).toEqual([2, 4]);
    expect(report.agents[0]!.score_differences).toEqual([]);
    expect(report.agents[0]!.scorecard!.total_actions).toBe(6);
    expect(report.status).toBe('completed');
  });

  it('reads the baselines from the scorecard after the first RESET, for budgets, agents and scores', async () => {
    const agent = scriptedAgent('stepper', '[1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]');
    const { report, episodes, tableMd } = await run(
      'baselines',
      `target: { server: { dialect: toolkit } }\nagents: [{ use: ${agent} }]\nbudgets: { max_actions: 40, max_actions_per_level: 0.25 }\n`,
    );
    const episode = episodes[0]!;
    expect(episode.baselines).toEqual(crat.info.baselineActions);
    expect(episode.baselines_known).toBe(true);
    // A quarter of level 1's baseline, then the per-level budget ends the episode.
    expect(episode.outcome).toBe('level_budget');
    expect(episode.actions).toBe(Math.ceil(0.25 * crat.info.baselineActions[0]!));
    expect(report.games_without_baselines).toEqual([]);
    expect(report.agents[0]!.score_differences).toEqual([]);
    expect(tableMd).toContain(`0/${crat.info.baselineActions.length}`);
    expect(report.totals.service_missing_fields).toContain('game.baseline_actions');
    // Warned about once in run.log, though the game list was read before the log existed.
    const warnings = readFileSync(join(dir, 'baselines', 'run.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('leave out game.baseline_actions'));
    expect(warnings).toHaveLength(1);
  });

  it('says where baselines stay unknown, in the table and run.json, and refuses per-level budgets', async () => {
    // In competition mode an open card cannot be read, and this service's closed cards have none either.
    const service = await serviceWithoutBaselines();
    onTestFinished(() => service.close());
    const agent = scriptedAgent('walker', '[1, 2, 3]');
    const target = `${service.target}scorecard: { competition_mode: true }\nagents: [{ use: ${agent} }]\n`;
    const unknown = await run('unknown', target);
    expect(unknown.report.games_without_baselines).toEqual([crat.info.id]);
    expect(unknown.episodes[0]).toMatchObject({ baselines_known: false, win_levels: crat.info.baselineActions.length, stop_details: { baselines: null } });
    // Local scores unknown, the service's own beside them.
    expect(unknown.tableMd).toMatch(/\| walker \| crat-\w+ \| 1 \| unknown \| 0\.00 \| unknown \| unknown \| 0\/\d+ \| 3 \|/);
    expect(unknown.tableMd).toMatch(/unknown: the service gives no level baselines/);

    const refused = await run('refused', `${target}budgets: { max_actions: 10, max_actions_per_level: 5 }\n`);
    expect(refused.episodes[0]!.outcome).toBe('error');
    expect(refused.episodes[0]!.error).toMatchObject({
      kind: 'baselines_unknown',
      message: expect.stringMatching(/max_actions_per_level needs each level's baseline.*remove max_actions_per_level/),
    });
    expect(refused.episodes[0]!.actions).toBe(0);
  });
});

describe('no unknown shown as a number', () => {
  it('writes null and "unknown" with the reason once, never 0, in every file; the service’s score beside it, and the difference listed', async () => {
    const service = await serviceWithoutBaselines();
    onTestFinished(() => service.close());
    const agent = scriptedAgent('ambler', '[1, 2, 3]');
    const file = join(dir, 'nulls.yaml');
    writeFileSync(file, `name: nulls\ngames: [crat]\nrecordings: false\n${service.target}scorecard: { competition_mode: true }\nagents: [{ use: ${agent} }]\n`);
    const out = join(dir, 'nulls');
    const summary = join(dir, 'nulls-summary.md');
    const { report } = await runExperiment(await loadExperiment(file), { out, stepSummary: summary });
    const written = readRunReport(out);
    const game = crat.info.id;

    // run.json: the table's scores, the local score, and why, once.
    const rows = written.table!.filter((row) => row.agent === 'ambler');
    for (const row of rows) expect([row.card_score, row.mean_score, row.interval]).toEqual([null, null, null]);
    expect(rows.map((row) => row.service_score)).toEqual([0, 0]);
    const local = written.agents[0]!.local_score;
    expect(local.score).toBeNull();
    expect(local.environments.find((e) => e.id === game)!.score).toBeNull();
    expect(local.tags_scores.every((tag) => tag.score === null)).toBe(true);
    expect(written.unknown_scores).toMatch(/no level baselines/);
    // The service says 0 where the local score is unknown: that is a difference, listed.
    expect(report.agents[0]!.score_differences).toContain(`${game}.score: local unknown, service 0`);
    expect(report.agents[0]!.score_differences).toContain('score: local unknown, service 0');

    // episodes.jsonl: the episode's own score.
    expect(parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'))[0]!.score).toBeNull();

    // junit.xml, the step summary and the report's data: unknown, with the reason; no score of 0.
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/scores unknown \(the service gives no level baselines/);
    expect(junit).not.toMatch(/card score 0\.00|mean score 0\.00/);
    const stepSummary = readFileSync(summary, 'utf8');
    expect(stepSummary).toMatch(/\| ambler \| crat-\w+ \| 1 \| unknown \|/);
    expect(stepSummary.match(/unknown: the service gives no level baselines/g)).toHaveLength(1);
    const data = buildReportData(readRunFolderSnapshot(out), { kind: 'served', base_url: '/' });
    expect(data.results.map((row) => [row.score, row.mean, row.service_score])).toEqual([
      [null, null, 0],
      [null, null, 0],
    ]);
    expect(data.agents[0]!.local_score).toBeNull();
    expect(data.episodes[0]!.score).toBeNull();
    expect(data.unknown_scores).toMatch(/no level baselines/);

    // compare: the game is left out, saying why, not compared as 0 against 0.
    expect(() => compareRuns(runEpisodesOfFolder(readRunFolder(out), 'a'), runEpisodesOfFolder(readRunFolder(out), 'b'))).toThrow(
      /scores unknown in the baseline \(the service gave no level baselines for them\), not compared: crat-/,
    );
  });
});

describe('fidelity against serve --dialect toolkit', () => {
  it('finds every game’s baselines, scores each game as the service does to 1e-9, and warns of nothing false', async () => {
    const server = await startServer({ dialect: 'toolkit', serviceOptions: { seed: 11 }, logger: false });
    try {
      const file = join(dir, 'fidelity.yaml');
      writeFileSync(
        file,
        `name: fidelity\ntarget: { url: "${server.url}", api_key: any-key }\nagents: [{ use: random }, { use: explorer }]\n` +
          'episodes: 3\nseed: 4\nbudgets: { max_actions: 60 }\nconcurrency: 4\nrecordings: false\n',
      );
      const { report, episodes } = await runExperiment(await loadExperiment(file), { out: join(dir, 'fidelity') });
      const games = gameCatalog().map((game) => game.info.id);
      expect([...report.games].sort()).toEqual([...games].sort());
      expect(report.games_without_baselines).toEqual([]);
      expect(episodes.every((e) => e.baselines_known !== false)).toBe(true);
      for (const agent of report.agents) {
        const service = agent.scorecard!;
        expect(agent.score_differences).toEqual([]);
        expect(Math.abs(agent.local_score.score! - service.score!)).toBeLessThanOrEqual(1e-9);
        for (const game of games) {
          const local = agent.local_score.environments.find((e) => e.id === game)!;
          const remote = service.environments!.find((e) => e.id === game)!;
          expect(Math.abs((local.score as number) - remote.score!), `${agent.label} ${game}`).toBeLessThanOrEqual(1e-9);
        }
      }
      // Some level was won, or the comparison would prove little.
      expect(report.agents.some((agent) => agent.local_score.score! > 0)).toBe(true);
      // The one true warning: the toolkit's games carry no baselines. Nothing about its scorecards.
      expect(report.totals.service_missing_fields).toEqual(['game.baseline_actions']);
      const log = readFileSync(join(dir, 'fidelity', 'run.log'), 'utf8');
      expect(log).not.toMatch(/leave out scorecard|baselines unknown|neither the game list/);
    } finally {
      await server.close();
    }
  });
});

describe('a card and a game that disagree on the level count', () => {
  it('scores with the card’s count, as the service does, and says so once per game', async () => {
    // As the toolkit's bt33 (3 levels on the card, 5 in its frames): every frame claims two levels more.
    const server = await startServer({ dialect: 'toolkit', serviceOptions: { seed: 12 }, logger: false });
    const proxy = await startRewritingProxy(server.url, (path, body) =>
      path.startsWith('/api/cmd/') ? body.replace(/"win_levels":(\d+)/, (_, n: string) => `"win_levels":${Number(n) + 2}`) : body,
    );
    try {
      const file = join(dir, 'levels.yaml');
      writeFileSync(
        file,
        `name: levels\ntarget: { url: "${proxy.url}", api_key: k }\ngames: [crat, lamp]\nagents: [{ use: explorer }]\n` +
          'episodes: 3\nseed: 4\nbudgets: { max_actions: 60 }\nrecordings: false\n',
      );
      const { report, episodes } = await runExperiment(await loadExperiment(file), { out: join(dir, 'levels') });
      expect(report.games_without_baselines).toEqual([]);
      for (const episode of episodes) {
        const game = gameCatalog().find((g) => g.info.id === episode.game_id)!;
        expect(episode.baselines).toEqual(game.info.baselineActions);
        expect(episode.win_levels).toBe(game.info.baselineActions.length + 2);
      }
      const agent = report.agents[0]!;
      expect(agent.score_differences).toEqual([]);
      expect(agent.local_score.total_levels).toBe(agent.scorecard!.total_levels);
      const warnings = readFileSync(join(dir, 'levels', 'run.log'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('level baseline(s) for'));
      expect(warnings).toHaveLength(2);
      expect(warnings.join('\n')).toMatch(/local scores use the card's \d+ level\(s\)/);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
