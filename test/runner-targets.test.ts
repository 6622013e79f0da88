// The same experiment on every target: in-process, our server on loopback with 3 backends and a
// rotating affinity cookie, and our server answering some requests 429; both servers also in the
// official toolkit's sparser dialect. The same seed must give the same episodes and scores everywhere,
// and each card's local score must equal the service's.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { RUN_FORMAT, runExperiment, type RunReport } from '../src/runner/runExperiment.ts';
import { startServer } from '../src/reference/server/index.ts';
import { firstOf } from './support/lists.ts';

const dir = mkdtempSync(join(tmpdir(), 'arcbench-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runWith(name: string, target: string, concurrency: number) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}\ntarget: ${target}\nagents: [{ use: random }, { use: explorer }]\nepisodes: 1\nseed: 11\n` +
      `budgets: { max_actions: 30 }\nconcurrency: ${concurrency}\n`,
  );
  const out = join(dir, name);
  const result = await runExperiment(await loadExperiment(file), { out });
  const report = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
  const episodes = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
  return { result, report, episodes, out };
}

/** What must not depend on the target: per episode its play and its outcome, and the scores. */
function comparable(episodes: EpisodeRecord[]) {
  return episodes
    .map((e) => ({
      agent: e.agent,
      game: e.game_id,
      episode: e.episode,
      seed: e.seed,
      outcome: e.outcome,
      actions: e.actions,
      levels: e.levels_completed,
      runs: e.runs.map((r) => ({ ...r, guid: '', sequence: 0 })),
    }))
    .sort((a, b) => `${a.agent}/${a.game}`.localeCompare(`${b.agent}/${b.game}`));
}

function expectCardsAgree(report: RunReport, dialect = 'arcbench') {
  for (const agent of report.agents) {
    expect(agent.scorecard, `${agent.label}'s card was closed`).not.toBeNull();
    // The toolkit's cards carry no published_at (docs/protocol.md §7a).
    if (dialect !== 'toolkit') expect(agent.scorecard!.published_at).toBeTruthy();
    expect(agent.scorecard!.tags).toEqual(expect.arrayContaining(['agent', agent.label]));
    expect(agent.score_differences).toEqual([]);
    expect(agent.local_score.score).toBeCloseTo(agent.scorecard!.score!, 9);
  }
}

describe('the same run on every target', () => {
  it.each(['arcbench', 'toolkit'])(
    'gives the same episodes and scores in-process, over HTTP (%s dialect) with 3 backends and rotation, and with 429s',
    async (dialect) => {
      const local = await runWith(`inprocess-${dialect}`, 'reference', 4);
      const rotated = await runWith(`server-${dialect}`, `{ server: { backends: 3, rotate_affinity: 1, dialect: ${dialect} } }`, 6);
      const throttled = await runWith(`throttled-${dialect}`, `{ server: { backends: 2, inject_429_every: 25, dialect: ${dialect} } }`, 3);

      for (const run of [local, rotated, throttled]) {
        expect(run.report.status).toBe('completed');
        expect(run.report.format).toBe(RUN_FORMAT);
        expect(run.report.totals.errors).toBe(0);
        expectCardsAgree(run.report, dialect);
      }
      expect(comparable(rotated.episodes)).toEqual(comparable(local.episodes));
      expect(comparable(throttled.episodes)).toEqual(comparable(local.episodes));
      const scores = (r: RunReport) => r.agents.map((a) => [a.label, a.local_score.score]);
      expect(scores(rotated.report)).toEqual(scores(local.report));
      expect(scores(throttled.report)).toEqual(scores(local.report));
      expect(throttled.report.totals.retries).toBeGreaterThan(0);
    },
  );

  it('writes one docs/protocol.md §9 recording per session (gzip: the same lines compressed), first line the RESET answer', async () => {
    const { out, episodes } = await runWith('recorded', 'reference', 2);
    const files = readdirSync(join(out, 'recordings'));
    expect(files).toHaveLength(episodes.length);
    const episode = firstOf(episodes, 'episode');
    const name = `${episode.game_id}.${episode.agent}.${episode.episode}.${episode.guid}.recording.jsonl.gz`;
    expect(files).toContain(name);
    const lines = gunzipSync(readFileSync(join(out, 'recordings', name)))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(episode.actions + 1 + episode.runs.length - 1);
    expect(lines[0].data).toMatchObject({ action_input: { id: 0, data: {} }, full_reset: true, guid: episode.guid });
    expect(lines[0].data.frame[0]).toHaveLength(64);
    expect(lines[0].data.frame[0][0]).toHaveLength(64);
    expect(typeof lines[0].timestamp).toBe('string');
    const action = lines.find((l) => l.data.action_input.id !== 0);
    expect(action.data.action_input.data.game_id).toBe(episode.game_id);
  });

  it('writes plain recordings with `recordings: jsonl`, gzip ones with `true`, none with `false`', async () => {
    for (const [setting, suffix] of [
      ['jsonl', '.recording.jsonl'],
      ['true', '.recording.jsonl.gz'],
      ['false', undefined],
    ] as const) {
      const file = join(dir, `setting-${setting}.yaml`);
      writeFileSync(file, `name: s\ngames: [slid]\nagents: [{ use: random }]\nbudgets: { max_actions: 5 }\nrecordings: ${setting}\n`);
      const { episodes, runDir } = await runExperiment(await loadExperiment(file), { out: join(dir, `setting-${setting}`) });
      const episode = firstOf(episodes, 'episode');
      if (suffix === undefined) {
        expect(episode.recording).toBeNull();
        expect(readdirSync(runDir)).not.toContain('recordings');
        continue;
      }
      expect(episode.recording!.endsWith(suffix)).toBe(true);
      const bytes = readFileSync(join(runDir, episode.recording!));
      const text = suffix.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      expect(text.trim().split('\n')).toHaveLength(6);
    }
  });

  it('logs a line per finished episode to run.log, and never the API key of a URL target', async () => {
    const server = await startServer({ logger: false, port: 0, serviceOptions: { seed: 3 } });
    try {
      const secret = 'sk-run-log-must-not-hold-this';
      const { out, episodes } = await runWith('logged', `{ url: "${server.url}", api_key: ${secret} }`, 2);
      const log = readFileSync(join(out, 'run.log'), 'utf8');
      expect(log).not.toContain(secret);
      const finished = log
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'episode finished');
      expect(finished).toHaveLength(episodes.length);
      for (const episode of episodes) {
        expect(finished).toContainEqual(
          expect.objectContaining({
            agent: episode.agent,
            game: episode.game_id,
            episode: episode.episode,
            outcome: episode.outcome,
            actions: episode.actions,
          }),
        );
      }
      expect(readFileSync(join(out, 'run.json'), 'utf8')).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it('runs the real quickstart end to end', async () => {
    const result = await runExperiment(await loadExperiment(join(import.meta.dirname, '..', 'configs', 'quickstart.yaml')), { out: join(dir, 'quickstart') });
    expect(result.report.status).toBe('completed');
    expect(result.report.totals.episodes).toBe(result.report.totals.planned_episodes);
    expectCardsAgree(result.report);
    expect(readFileSync(join(dir, 'quickstart', 'table.md'), 'utf8')).toContain('| explorer | **total** |');
    expect(result.table).toContain('total');
  });
});
