/**
 * `kill -9` of a real `arcbench run` at several points, then `--resume`, on the in-process target and
 * over HTTP against a real `arcbench serve --backends 3`. The run is stopped at a known point by a test
 * agent that freezes its own process at a chosen step (tests/fixtures/trapAgent.ts), by a proxy that
 * holds a scorecard close, and by a named pipe put where run.json's temp file goes, so the write blocks
 * half way. After each resume: every planned episode is in the results exactly once, every card is
 * closed on the server (asked from the server itself), and the local scores equal an uninterrupted run's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { readRunFolder, currentEpisodes } from '../src/runfolder/readRunFolder.ts';
import type { RunReport } from '../src/runfolder/runReport.ts';
import { runExperiment } from '../src/runner/runExperiment.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { sendRequest } from './support/httpDriver.ts';
import { startStallingProxy, type StallingProxy } from './support/stallingProxy.ts';

const TRAP_AGENT = join(import.meta.dirname, 'fixtures', 'trapAgent.ts');
const KEY = 'resume-test-key';
const BACKENDS = 3;
const GAMES = ['flod', 'lamp'];
const EPISODES = 3;
const PLANNED = 2 * GAMES.length * EPISODES;
/**
 * How long a run may take to reach its trap: up to all its episodes, in a process that starts tsx and the
 * runner, and the recording thread. With another test file running beside this one on a loaded 2-core
 * machine, the last episode's trap has taken over 30 s (waitUntil's default); a test gets 150 s in all.
 */
const REACH_MS = 60_000;
const TEST_MS = 150_000;

interface Trap {
  game: string;
  episode: number;
  step: number;
  mode: 'freeze' | 'wait';
}

function experimentYaml(options: { target: string; marker: string; trap: Trap; concurrency: number; description?: string }): string {
  const { trap } = options;
  return [
    'name: killed',
    `description: ${JSON.stringify(options.description ?? 'resume after kill -9')}`,
    `target: ${options.target}`,
    `games: [${GAMES.join(', ')}]`,
    'agents:',
    `  - use: ${JSON.stringify(TRAP_AGENT)}`,
    '    label: trap',
    `    params: { trap: { game: ${trap.game}, episode: ${trap.episode}, step: ${trap.step}, mode: ${trap.mode}, marker: ${JSON.stringify(options.marker)} } }`,
    '  - use: random',
    `episodes: ${EPISODES}`,
    'seed: 11',
    'budgets: { max_actions: 40 }',
    `concurrency: ${options.concurrency}`,
    'recordings: true',
    '',
  ].join('\n');
}

const readReport = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunReport;
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

/** Local scores per agent: the card score and each game's score, as an uninterrupted run must have them too. */
function localScores(report: RunReport) {
  return Object.fromEntries(
    report.agents.map((a) => [a.label, { score: a.local_score.score, games: Object.fromEntries(a.local_score.environments.map((e) => [e.id, e.score])) }]),
  );
}

/** The card as the server itself has it: asked without cookies, so each try lands on the next backend. */
async function cardOnServer(url: string, cardId: string): Promise<{ published_at?: string | null } | undefined> {
  for (let i = 0; i < BACKENDS; i++) {
    const answer = await sendRequest(url, `/api/scorecard/${cardId}`, { headers: { 'x-api-key': KEY } });
    if (answer.status === 200) return answer.body as { published_at?: string | null };
  }
  return undefined;
}

/** Kills the child with SIGKILL and waits for it to be gone. */
async function killNow(run: ArcbenchProcess): Promise<void> {
  run.child.kill('SIGKILL');
  expect(await run.exited).toBe('SIGKILL');
}

/**
 * Makes the run's next run.json write block half way: a named pipe where the write's temp file goes
 * (`run.json.<pid>.tmp`), read by us until the child is inside the write. The run.json text is over
 * a megabyte (the description), far beyond a pipe's buffer, so the child cannot finish the write.
 */
async function blockNextReportWrite(out: string, pid: number): Promise<{ caughtWriting: Promise<void>; done(): Promise<void> }> {
  const fifo = join(out, `run.json.${pid}.tmp`);
  execFileSync('mkfifo', [fifo]);
  const opening = open(fifo, 'r');
  const caughtWriting = opening.then(async (handle) => {
    const { bytesRead } = await handle.read(Buffer.alloc(65_536), 0, 65_536, null);
    expect(bytesRead).toBeGreaterThan(0);
  });
  return {
    caughtWriting,
    done: async () => {
      // If the child never opened the pipe, our pending open would hold a thread: a writer of our own frees it.
      const unblock = await open(fifo, 'r+').catch(() => undefined);
      await (await opening).close();
      await unblock?.close();
    },
  };
}

interface Scenario {
  name: string;
  trap: Trap;
  concurrency: number;
  bigReport?: boolean;
  /** What the test asserts right before the kill, and does to reach it. */
  reach(run: ArcbenchProcess, out: string, marker: string, proxy: StallingProxy | undefined): Promise<void>;
}

const afterCardsOpened: Scenario = {
  name: 'after the cards opened',
  trap: { game: 'flod', episode: 0, step: 0, mode: 'freeze' },
  concurrency: 2,
  async reach(run, out, marker) {
    await waitUntil(() => existsSync(marker), 'the trap at the first episode', REACH_MS);
    expect(readReport(out).cards.map((c) => c.state)).toEqual(['open', 'open']);
    await killNow(run);
  },
};

const midEpisodes: Scenario = {
  name: 'in the middle of episodes',
  // The trap waits (its process lives on) and, one episode at a time, nothing else is played meanwhile:
  // the episodes before it reach episodes.jsonl once their recordings are complete, the rest are unplayed.
  trap: { game: 'lamp', episode: 1, step: 5, mode: 'wait' },
  concurrency: 1,
  async reach(run, out, marker) {
    await waitUntil(() => existsSync(marker), 'the trap in episode 1 of lamp', REACH_MS);
    await waitUntil(() => lines(join(out, 'episodes.jsonl')) > 0, 'the episodes before the trap in episodes.jsonl', REACH_MS);
    // The in-flight episode's recording is made by the recording thread: it is there to stay once made.
    const trapRecording = (f: string) => f.startsWith('lamp') && f.includes('.trap.1.');
    await waitUntil(() => readdirSync(join(out, 'recordings')).some(trapRecording), "the trap episode's recording", REACH_MS);
    expect(lines(join(out, 'episodes.jsonl'))).toBeLessThan(PLANNED);
    await killNow(run);
  },
};

const whileWritingReport: Scenario = {
  name: 'while writing run.json as the first card closes',
  // One episode at a time: while the trap waits, nothing else moves, and the pipe goes in place.
  trap: { game: 'lamp', episode: EPISODES - 1, step: 3, mode: 'wait' },
  concurrency: 1,
  bigReport: true,
  async reach(run, out, marker) {
    await waitUntil(() => existsSync(marker), 'the trap in the last episode', REACH_MS);
    const { pid } = JSON.parse(readFileSync(marker, 'utf8')) as { pid: number };
    const pipe = await blockNextReportWrite(out, pid);
    try {
      writeFileSync(`${marker}.release`, '');
      await pipe.caughtWriting;
      await killNow(run);
    } finally {
      await pipe.done();
    }
    expect(readdirSync(out)).toContain(`run.json.${pid}.tmp`);
    expect(lines(join(out, 'episodes.jsonl'))).toBe(PLANNED);
  },
};

const whileClosingCards: Scenario = {
  name: 'while closing cards (the second close held by a proxy)',
  trap: { game: 'none', episode: 0, step: 0, mode: 'freeze' },
  concurrency: 2,
  async reach(run, out, _marker, proxy) {
    await proxy!.held;
    const report = readReport(out);
    expect(report.cards.map((c) => c.state)).toEqual(['closed', 'open']);
    await killNow(run);
  },
};

describe('resume after kill -9', () => {
  let dir: string;
  let reference: ReturnType<typeof localScores>;
  let serve: ArcbenchProcess | undefined;
  let serverUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-resume-kill-'));
    // The uninterrupted run: the same experiment, its trap's marker already there so it never fires.
    const marker = join(dir, 'reference.marker');
    writeFileSync(marker, '');
    writeFileSync(join(dir, 'reference.yaml'), experimentYaml({ target: 'reference', marker, trap: midEpisodes.trap, concurrency: 2 }));
    const result = await runExperiment(await loadExperiment(join(dir, 'reference.yaml')), { out: join(dir, 'reference') });
    expect(result.report.status).toBe('completed');
    reference = localScores(result.report);

    serve = startArcbench(['serve', '--port', '0', '--backends', String(BACKENDS), '--log-level', 'silent'], dir);
    await waitUntil(() => /^(http:\/\/\S+)$/m.test(serve!.output().stdout), 'arcbench serve to listen');
    serverUrl = /^(http:\/\/\S+)$/m.exec(serve.output().stdout)![1]!;
  }, 60_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Kills a run at the scenario's point, resumes it, and checks the folder and the server. */
  async function killAndResume(scenario: Scenario, over: 'in-process' | 'http', resumeForm: 'resume' | 'run --resume'): Promise<void> {
    const name = `${over}-${scenario.name.replace(/\W+/g, '-')}`;
    const out = join(dir, name);
    const marker = join(dir, `${name}.marker`);
    const proxy = scenario === whileClosingCards ? await startStallingProxy(serverUrl, heldSecondClose()) : undefined;
    const target = over === 'in-process' ? 'reference' : `{ url: "${proxy?.url ?? serverUrl}", api_key: ${KEY} }`;
    const description = scenario.bigReport ? 'x'.repeat(1_200_000) : undefined;
    const config = join(dir, `${name}.yaml`);
    writeFileSync(config, experimentYaml({ target, marker, trap: scenario.trap, concurrency: scenario.concurrency, description }));
    const run = startArcbench(['run', config, '--out', out], dir);
    try {
      await scenario.reach(run, out, marker, proxy);

      const resumed = await runArcbench(resumeForm === 'resume' ? ['resume', out] : ['run', config, '--resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      await checkFinished(out, over, resumed.stderr);
    } finally {
      // A run whose kill point was never reached (a failed wait) would otherwise freeze or wait on for ever.
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      await run.exited;
      await proxy?.close();
    }
  }

  async function checkFinished(out: string, over: 'in-process' | 'http', stderr: string): Promise<void> {
    const folder = readRunFolder(out);
    const report = folder.report;
    // Every planned episode exactly once.
    const keys = currentEpisodes(folder.records).map((e) => `${e.agent}/${e.game_id}/${e.episode}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(PLANNED);
    // Runs are numbered across attempts in the order they began: no number twice.
    const sequences = folder.records.flatMap((e) => e.runs.map((r) => r.sequence));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(report).toMatchObject({ status: 'completed', totals: { planned_episodes: PLANNED, episodes: PLANNED, skipped_episodes: 0, errors: 0 } });
    expect(report.attempts.map((a) => a.status)).toEqual(['died', 'completed']);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Every card of every attempt is listed; closed on the server, or lost with the process that held it.
    expect(new Set(report.cards.map((c) => c.attempt)).has(1)).toBe(true);
    for (const card of report.cards) {
      if (over === 'http') {
        expect(card.state).toBe('closed');
        expect((await cardOnServer(serverUrl, card.card_id))?.published_at, card.card_id).toBeTruthy();
      } else if (card.attempt === 1) {
        expect(card.state).toBe('lost');
        expect(card.close_error).toMatch(/in-process service, which ended with that attempt's process/);
        expect(stderr).toContain(card.card_id);
        // Said once (the log's warning), not again in the closing lines.
        expect(stderr.split(card.close_error!).length - 1, stderr).toBe(1);
      } else {
        expect(card.state).toBe('closed');
      }
    }
    expect(localScores(report)).toEqual(reference);
  }

  it.each([
    [afterCardsOpened.name, afterCardsOpened, 'resume'],
    [midEpisodes.name, midEpisodes, 'run --resume'],
    [whileWritingReport.name, whileWritingReport, 'resume'],
  ] as const)(
    'in-process: killed %s, resumed: every episode once, the same scores',
    async (_name, scenario, form) => {
      await killAndResume(scenario, 'in-process', form);
    },
    TEST_MS,
  );

  it.each([
    [afterCardsOpened.name, afterCardsOpened, 'run --resume'],
    [midEpisodes.name, midEpisodes, 'resume'],
    [whileClosingCards.name, whileClosingCards, 'resume'],
    [whileWritingReport.name, whileWritingReport, 'run --resume'],
  ] as const)(
    'over HTTP (serve --backends 3): killed %s, resumed: every episode once, every card closed on the server',
    async (_name, scenario, form) => {
      await killAndResume(scenario, 'http', form);
    },
    TEST_MS,
  );

  it('plays an episode that was in flight at the kill again from a new RESET', async () => {
    const folder = readRunFolder(join(dir, 'in-process-in-the-middle-of-episodes'));
    const final = currentEpisodes(folder.records).find((e) => e.agent === 'trap' && e.game_id.startsWith('lamp') && e.episode === 1)!;
    expect(final.attempt).toBe(2);
    // Its record says why it was not continued, as for a service target (issue 33).
    expect(final.restarted?.reason).toMatch(/in-process service/);
    // The first attempt's cards died with it: no service score is set beside a card score of all the episodes, and the table says why.
    const lost = [...new Set(folder.report.cards.filter((card) => card.state === 'lost').map((card) => card.agent))];
    expect(lost.length).toBeGreaterThan(0);
    expect(folder.report.table?.filter((row) => lost.includes(row.agent)).every((row) => row.service_score == null)).toBe(true);
    expect(readFileSync(join(folder.dir, 'table.md'), 'utf8')).toContain(
      `service score: not shown for ${lost.join(', ')}: a card of an earlier attempt was lost`,
    );
    // The dead attempt's recording of it stays, under its own session; the replay has a new one.
    const recordings = readdirSync(join(folder.dir, 'recordings')).filter((f) => f.startsWith(`${final.game_id}.trap.1.`));
    expect(recordings).toHaveLength(2);
    expect(recordings.filter((f) => f.includes(final.guid!))).toHaveLength(1);
  });
});

/** Holds the second scorecard close: the first card is closed, the second stays open on the server. */
function heldSecondClose(): (method: string, path: string) => boolean {
  let closes = 0;
  return (method, path) => method === 'POST' && path.endsWith('/api/scorecard/close') && ++closes === 2;
}
