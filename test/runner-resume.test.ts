/**
 * Resume without kills: what a resume picks to play (retry-errors, cut-short and duplicate records),
 * the plan fingerprint and its refusal sentences, reading a damaged episodes.jsonl, and the command
 * line: a used folder refused or moved aside with --force, --retry-errors replaying one agent's failed
 * episodes and nothing else, a run stopped on run_seconds reported partial and finished by a resume,
 * a changed experiment or a live run refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperiment } from '../src/runner/config/loader.ts';
import type { EpisodeRecord } from '../src/runfolder/episodeRecord.ts';
import { planEpisodes } from '../src/runner/plan.ts';
import { canonicalJson, fingerprintDifferences, planFingerprint } from '../src/runner/resume/planFingerprint.ts';
import { selectEpisodes } from '../src/runner/resume/resumeSelection.ts';
import { currentEpisodes, parseEpisodeLines, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { ReferenceService } from '../src/reference/referenceService.ts';
import { runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { firstOf, itemAt } from './support/lists.ts';

const TRAP_AGENT = join(import.meta.dirname, 'fixtures', 'trapAgent.ts');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arcbench-resume-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const games = new ReferenceService({ seed: 1 }).listGames('k');

async function experiment(yaml: string) {
  return parseExperiment(yaml, { file: join(dir, 'x.yaml'), baseDir: dir });
}

const BASE = 'name: x\nagents: [{ use: random }, { use: explorer }]\nepisodes: 2\nseed: 3\n';

/** The fields a resume reads; the rest of a record does not matter here. */
function recordOf(agent: string, gameId: string, episode: number): EpisodeRecord {
  const fields = { agent, game_id: gameId, episode, seed: 1, attempt: 1, outcome: 'budget', baselines: [1], runs: [], actions: 1, card_id: 'c1' };
  return fields as Partial<EpisodeRecord> as EpisodeRecord;
}

describe('what a resume plays', () => {
  it('plays the planned episodes without a record, cut-short ones again, failed ones only with retry-errors', async () => {
    const exp = await experiment(BASE);
    const twoGames = games.slice(0, 2);
    const plan = { games: twoGames, episodes: planEpisodes(exp, twoGames) };
    const g0 = itemAt(twoGames, 0, 'game').game_id;
    const g1 = itemAt(twoGames, 1, 'game').game_id;
    const make = () => [
      { ...recordOf('random', g0, 0) },
      { ...recordOf('random', g0, 1), outcome: 'error' as const },
      { ...recordOf('explorer', g0, 0), outcome: 'time' as const, cut_by_run_stop: true as const },
      { ...recordOf('explorer', g1, 1) },
      { ...recordOf('explorer', g1, 1), attempt: 2 }, // a duplicate: the later one counts
    ];

    const plain = selectEpisodes(plan, make(), { attempt: 3, retryErrors: false, where: 'test' });
    expect(plain.kept.map((r) => `${r.agent}/${r.game_id}/${r.episode}/${r.attempt}`)).toEqual([`random/${g0}/0/1`, `random/${g0}/1/1`, `explorer/${g1}/1/2`]);
    expect(plain.toPlay).toHaveLength(plan.episodes.length - 3);
    expect(plain.toPlay.some((s) => s.agent.label === 'explorer' && s.game.game_id === g0 && s.index === 0)).toBe(true);
    expect(plain).toMatchObject({ replayedCut: 1, replayedErrors: 0, newlySuperseded: 2 });

    const records = make();
    const retry = selectEpisodes(plan, records, { attempt: 3, retryErrors: true, where: 'test' });
    expect(retry.kept).toHaveLength(2);
    expect(retry).toMatchObject({ replayedCut: 1, replayedErrors: 1, newlySuperseded: 3 });
    expect(itemAt(records, 1, 'record').superseded).toEqual({ by_attempt: 3, reason: 'failed; played again (--retry-errors)' });
    expect(itemAt(records, 3, 'record').superseded).toEqual({ by_attempt: 2, reason: 'a later record of the same episode' });
    expect(retry.superseded).toHaveLength(3);
    expect(currentEpisodes(records)).toHaveLength(2);
  });

  it('refuses a record that is not in the plan', async () => {
    const exp = await experiment(BASE);
    const plan = { games: games.slice(0, 1), episodes: planEpisodes(exp, games.slice(0, 1)) };
    expect(() =>
      selectEpisodes(plan, [recordOf('random', firstOf(games, 'game').game_id, 7)], { attempt: 2, retryErrors: false, where: 'f/episodes.jsonl' }),
    ).toThrow(/f\/episodes\.jsonl: holds episode 7 of random on .*which this run's plan does not have/);
  });
});

describe('the plan fingerprint', () => {
  const fingerprintOf = async (yaml: string) => planFingerprint(await experiment(yaml), { games, episodes: [] });

  it('ignores what does not change episodes: agent and game order, concurrency, run_seconds, recordings', async () => {
    const a = await fingerprintOf(`${BASE}games: [flod, lamp]\nbudgets: { max_actions: 50, run_seconds: 10 }\n`);
    const b = await fingerprintOf(
      'name: y\nagents: [{ use: explorer }, { use: random }]\nepisodes: 2\nseed: 3\ngames: [lamp, flod]\nconcurrency: 9\nrecordings: false\nbudgets: { max_actions: 50, run_seconds: 99 }\n',
    );
    expect(fingerprintDifferences(a, b)).toEqual([]);
  });

  it('names each change that changes episodes', async () => {
    const before = await fingerprintOf(BASE);
    const after = await fingerprintOf(
      'name: x\nagents: [{ use: random, params: { click_bias: 0.5 } }, { use: explorer, label: scout }]\nepisodes: 3\nseed: 4\nbudgets: { max_actions: 10 }\n',
    );
    expect(fingerprintDifferences(before, after)).toEqual([
      'seed (was 3, now 4)',
      'episodes (was 2, now 3)',
      'budgets.max_actions (was 80, now 10)',
      'agent "explorer" is no longer in the experiment',
      'agents[random].params (was {"click_bias":0.9}, now {"click_bias":0.5})',
      'agent "scout" is new',
    ]);
  });

  it('keeps secret-named params out of the fingerprint: a rotated key changes no episode', async () => {
    writeFileSync(
      join(dir, 'keyed.ts'),
      "import { defineAgent, z, stop } from 'arcbench';\nexport default defineAgent({ name: 'keyed', params: z.strictObject({ api_key: z.string(), depth: z.int() }), create: () => ({ act: () => stop() }) });\n",
    );
    const keyed = (key: string, depth: number) => fingerprintOf(`name: k\nagents: [{ use: ./keyed.ts, params: { api_key: ${key}, depth: ${depth} } }]\n`);
    const first = await keyed('sk-one', 2);
    expect(JSON.stringify(first)).not.toContain('sk-one');
    expect(fingerprintDifferences(first, await keyed('sk-two', 2))).toEqual([]);
    expect(fingerprintDifferences(first, await keyed('sk-two', 3))).toEqual([
      'agents[keyed].params (was {"api_key":"[redacted]","depth":2}, now {"api_key":"[redacted]","depth":3})',
    ]);
  });

  it('canonical JSON does not depend on key order, and round-trips JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const reversed = JSON.parse(JSON.stringify(value), (_key, v) =>
          v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
        );
        expect(canonicalJson(reversed)).toBe(text);
      }),
    );
  });
});

describe('reading episodes.jsonl back', () => {
  const line = (episode: number) => JSON.stringify({ ...recordOf('random', 'g', episode) });

  it('drops a last line cut off mid-write, and says so', () => {
    const { records, tornTail } = parseEpisodeLines(`${line(0)}\n${line(1)}\n${line(2).slice(0, 30)}`, 'e.jsonl');
    expect(records.map((r) => r.episode)).toEqual([0, 1]);
    expect(tornTail).toBe(true);
    expect(parseEpisodeLines(`${line(0)}\n`, 'e.jsonl').tornTail).toBe(false);
  });

  it('names a damaged line anywhere else', () => {
    expect(() => parseEpisodeLines(`${line(0)}\n{"agent": 1}\n${line(2)}\n`, 'e.jsonl')).toThrow(/^e\.jsonl line 2: not an episode of this arcbench: agent: /);
    expect(() => parseEpisodeLines(`${line(0)}\nnot json\n${line(2)}\n`, 'e.jsonl')).toThrow(/^e\.jsonl line 2: not JSON \(.*\); the episode log is damaged$/);
  });
});

/** An experiment file `<name>.yaml` in the temp dir (written again: the same file changed). */
function writeConfig(name: string, body: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `name: ${name}\n${body}`);
  return file;
}

describe('arcbench run and resume, on the command line', () => {
  it('refuses a second run into a used folder, and --force moves it aside without deleting it', async () => {
    const config = writeConfig('used', 'games: [flod]\nagents: [{ use: random }]\nbudgets: { max_actions: 10 }\nrecordings: false\n');
    const out = join(dir, 'used-out');
    expect((await runArcbench(['run', config, '--out', out], dir)).code).toBe(0);
    const before = readFileSync(join(out, 'episodes.jsonl'), 'utf8');

    const again = await runArcbench(['run', config, '--out', out], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${out} is not empty`);
    expect(again.stderr).toContain(`arcbench resume ${out}`);
    expect(readFileSync(join(out, 'episodes.jsonl'), 'utf8')).toBe(before);

    const forced = await runArcbench(['run', config, '--out', out, '--force'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    const aside = readdirSync(dir).filter((name) => name.startsWith('used-out.moved-'));
    const moved = join(dir, firstOf(aside, 'folder moved aside'));
    expect(aside).toHaveLength(1);
    expect(forced.stderr).toContain(`aside to ${moved}`);
    expect(readFileSync(join(moved, 'episodes.jsonl'), 'utf8')).toBe(before);
    expect(readRunFolder(out).records).toHaveLength(1);
  }, 60_000);

  it('--retry-errors plays again the failed episodes of one agent, and nothing else', async () => {
    const markers = join(dir, 'fail-markers');
    mkdirSync(markers);
    const config = writeConfig(
      'flaky',
      `games: [flod, lamp]\nagents:\n  - use: ${JSON.stringify(TRAP_AGENT)}\n    label: flaky\n    params: { fail: { game: lamp, episodes: [0, 2], marker_dir: ${JSON.stringify(markers)} } }\n  - use: random\nepisodes: 3\nbudgets: { max_actions: 20 }\nrecordings: false\n`,
    );
    const out = join(dir, 'flaky-out');
    const first = await runArcbench(['run', config, '--out', out], dir);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('2 episode(s) failed');

    // Without --retry-errors the failed episodes are finished: nothing to play.
    const plain = await runArcbench(['resume', out], dir);
    expect(plain.code).toBe(1);
    expect(readRunFolder(out).report.attempts[1]).toMatchObject({ to_play: 0, played: 0 });

    const retried = await runArcbench(['resume', out, '--retry-errors'], dir);
    expect(retried.code, retried.stderr).toBe(0);
    const folder = readRunFolder(out);
    const failedKeys = (records: EpisodeRecord[]) => records.map((r) => `${r.agent}/${r.game_id.slice(0, 4)}/${r.episode}`).sort();
    const replayed = folder.records.filter((r) => r.attempt === 3);
    expect(failedKeys(replayed)).toEqual(['flaky/lamp/0', 'flaky/lamp/2']);
    expect(replayed.every((r) => r.outcome !== 'error')).toBe(true);
    const superseded = folder.records.filter((r) => r.superseded !== undefined);
    expect(failedKeys(superseded)).toEqual(['flaky/lamp/0', 'flaky/lamp/2']);
    expect(superseded.every((r) => r.outcome === 'error' && r.superseded!.by_attempt === 3)).toBe(true);
    expect(folder.records).toHaveLength(12 + 2);
    expect(folder.report).toMatchObject({ status: 'completed', totals: { episodes: 12, errors: 0, superseded_episodes: 2 } });
    expect(folder.report.cards.map((c) => `${c.agent}@${c.attempt}`)).toEqual(['flaky@1', 'random@1', 'flaky@3']);
  }, 60_000);

  it('reports a run stopped on run_seconds as partial (exit 3), and a resume plays the rest', async () => {
    const body = (runSeconds: string) =>
      `games: all\nagents: [{ use: random }]\nepisodes: 60\nbudgets: { max_actions: 200${runSeconds} }\nconcurrency: 2\nrecordings: false\n`;
    const config = writeConfig('short', body(', run_seconds: 0.2'));
    const out = join(dir, 'short-out');
    const partial = await runArcbench(['run', config, '--out', out], dir);
    expect(partial.code, partial.stderr).toBe(3);
    const report = readRunFolder(out).report;
    expect(report.status).toBe('partial');
    const left = report.totals.skipped_episodes;
    expect(left).toBeGreaterThan(0);
    const sentence = `stopped on a run budget (run_seconds or max_run_cost_usd): ${left} of 360 planned episode(s) not played`;
    expect(partial.stdout).toContain(sentence);
    expect(partial.stderr).toContain(sentence);
    expect(readFileSync(join(out, 'table.md'), 'utf8')).toContain(sentence);

    writeConfig('short', body('')); // more time is no change to the episodes
    const resumed = await runArcbench(['resume', out], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    const folder = readRunFolder(out);
    const current = currentEpisodes(folder.records);
    expect(new Set(current.map((r) => `${r.game_id}/${r.episode}`)).size).toBe(360);
    expect(current.some((r) => r.cut_by_run_stop)).toBe(false);
    expect(folder.records.filter((r) => r.superseded).every((r) => r.cut_by_run_stop)).toBe(true);
    expect(folder.report).toMatchObject({ status: 'completed', totals: { episodes: 360, skipped_episodes: 0, cut_episodes: 0 } });
  }, 90_000);

  it('refuses to resume when the experiment changed its episodes, saying what changed', async () => {
    const config = writeConfig('changing', 'games: [flod]\nagents: [{ use: random }]\nseed: 11\nbudgets: { max_actions: 10 }\nrecordings: false\n');
    const out = join(dir, 'changing-out');
    expect((await runArcbench(['run', config, '--out', out, '--concurrency', '1'], dir)).code).toBe(0);
    writeConfig(
      'changing',
      'games: [flod]\nagents: [{ use: random, params: { click_bias: 0.1 } }]\nseed: 12\nbudgets: { max_actions: 10 }\nrecordings: false\n',
    );
    const refused = await runArcbench(['resume', out], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'the experiment changed since this run started, in ways that change its episodes: seed (was 11, now 12); agents[random].params',
    );
    expect(readRunFolder(out).report.attempts).toHaveLength(1);
  }, 60_000);

  it('applies the seed the run started with again, and refuses a different one', async () => {
    const config = writeConfig('seeded', 'games: [flod]\nagents: [{ use: random }]\nbudgets: { max_actions: 10 }\nrecordings: false\n');
    const out = join(dir, 'seeded-out');
    expect((await runArcbench(['run', config, '--out', out, '--seed', '5'], dir)).code).toBe(0);
    expect((await runArcbench(['run', config, '--resume', out], dir)).code).toBe(0);
    const other = await runArcbench(['run', config, '--resume', out, '--seed', '6'], dir);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('seed (was 5, now 6)');
  }, 60_000);

  it('resumes a run made without a config file with the same flags', async () => {
    const out = join(dir, 'flags-out');
    const flags = ['--agent', 'random', '--game', 'flod', '--seed', '4', '--episodes', '2', '--max-actions', '10'];
    const first = await runArcbench(['run', ...flags, '--out', out], dir);
    expect(first.code, first.stderr).toBe(0);
    // The same flags again, or the fingerprint (seed, games, episodes, budgets) would differ and be refused.
    // The flags are found again and the plan matches (else exit 2); the run being complete, nothing is played or written.
    const resumed = await runArcbench(['resume', out], dir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('nothing left to play');
    expect(readRunFolder(out).report.attempts.map((a) => [a.to_play, a.status])).toEqual([[2, 'completed']]);
  }, 60_000);

  it('refuses a folder a live run still writes, and bad option combinations', async () => {
    const marker = join(dir, 'busy.marker');
    const config = writeConfig(
      'busy',
      `games: [flod]\nagents:\n  - use: ${JSON.stringify(TRAP_AGENT)}\n    params: { trap: { game: flod, episode: 0, marker: ${JSON.stringify(marker)} } }\nbudgets: { max_actions: 10 }\n`,
    );
    const out = join(dir, 'busy-out');
    const run = startArcbench(['run', config, '--out', out], dir);
    try {
      await waitUntil(() => existsSync(marker), 'the trap');
      const busy = await runArcbench(['resume', out], dir);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`is still running (process ${run.child.pid})`);
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    expect((await runArcbench(['run', config, '--retry-errors'], dir)).stderr).toContain('use it with --resume');
    expect((await runArcbench(['run', config, '--resume', out, '--out', out], dir)).code).toBe(2);
    const notARun = await runArcbench(['resume', dir], dir);
    expect(notARun.code).toBe(2);
    expect(notARun.stderr).toContain('cannot read run.json');
    const diedEarly = join(dir, 'died-early');
    mkdirSync(diedEarly);
    writeFileSync(join(diedEarly, 'run.log'), '');
    const early = await runArcbench(['resume', diedEarly], dir);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain(
      `has no run.json: its run died before it started playing; start it again with: arcbench run <config> --out ${diedEarly} --force`,
    );
  }, 60_000);
});
