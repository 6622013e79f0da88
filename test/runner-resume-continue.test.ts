/**
 * `kill -9` of a real `arcbench run` in the middle of an episode of an agent with snapshot() and
 * restore(), against a real `arcbench serve --backends 3` behind a proxy of ours that keeps the
 * service's action log; then `arcbench resume`. Killed while the agent decides, or with its action
 * held before it reached the service, the episode goes on on its own session at the step after the
 * last one recorded: the service saw every action of the uninterrupted episode once and no other,
 * usage adds up to one pretend model call per decision, and the recording is the uninterrupted one's.
 * Killed after the service counted an action whose answer never came back, and on the in-process
 * service, or with a checkpoint that fails its schema, the episode is played again from a new RESET
 * and its record says why. A folder without checkpoints/ (written before them) resumes as it always did.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionInputOf } from '../src/protocol/index.ts';
import { currentEpisodes, readRunFolder } from '../src/runfolder/readRunFolder.ts';
import { type HoldPlan, startActionLogProxy } from './support/actionLogProxy.ts';
import { type ArcbenchProcess, runArcbench, startArcbench, waitUntil } from './support/arcbenchProcess.ts';
import { sendRequest } from './support/httpDriver.ts';
import {
  commandMoves,
  playedLines,
  playUninterrupted,
  recordingOf,
  TRAP_STEP,
  TRAPPED_ACTIONS,
  trappedExperimentYaml,
  type UninterruptedEpisode,
} from './support/trappedEpisode.ts';

const KEY = 'continue-test-key';

/** The experiment of every test here, under one name. */
const experimentYaml = (target: string, marker: string, decideMs = 0, recordings: 'gzip' | 'jsonl' = 'gzip') =>
  trappedExperimentYaml({ name: 'continued', target, marker, decideMs, recordings });

describe('resume continues an episode from its checkpoint', () => {
  let dir: string;
  let serve: ArcbenchProcess | undefined;
  let serverUrl: string;
  let reference: UninterruptedEpisode;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arcbench-continue-'));
    serve = startArcbench(['serve', '--port', '0', '--backends', '3', '--log-level', 'silent'], dir);
    // serve prints its URL alone on a stdout line.
    await waitUntil(() => /^(http:\S+)$/m.test(serve!.output().stdout), 'arcbench serve to listen');
    serverUrl = /^(http:\S+)$/m.exec(serve.output().stdout)![1]!;
    reference = await playUninterrupted(serverUrl, dir, (url, marker) => experimentYaml(`{ url: "${url}", api_key: ${KEY} }`, marker));
  }, 60_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  const closing: Promise<void>[] = [];

  /** Closes a card on the server itself: asked without cookies, so each try lands on the next backend. */
  async function closeOnServer(cardId: string): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const answer = await sendRequest(serverUrl, '/api/scorecard/close', { headers: { 'x-api-key': KEY }, json: { card_id: cardId } });
      if (answer.status === 200) return;
    }
    throw new Error(`no backend closed card ${cardId}`);
  }

  /** Runs the experiment in a child, kills it at the scenario's point, resumes it; the folder and the proxy's log. */
  async function killAndResume(
    name: string,
    options: {
      hold?: HoldPlan;
      inProcess?: boolean;
      dropCheckpoints?: boolean;
      beforeResume?: (out: string, heldAnswer: string | undefined) => void;
      awaitBeforeResume?: () => Promise<unknown>;
    },
  ) {
    const out = join(dir, name);
    const marker = join(dir, `${name}.marker`);
    if (options.hold !== undefined) writeFileSync(marker, ''); // held by the proxy, not trapped
    const proxy = await startActionLogProxy(serverUrl, options.hold);
    const target = options.inProcess ? 'reference' : `{ url: "${proxy.url}", api_key: ${KEY} }`;
    // In-process, an episode says it is in flight once it has played a second: this one decides slowly.
    writeFileSync(join(dir, `${name}.yaml`), experimentYaml(target, marker, options.inProcess ? 200 : 0, name === 'recorded-answer' ? 'jsonl' : 'gzip'));
    try {
      const run = startArcbench(['run', join(dir, `${name}.yaml`), '--out', out], dir);
      let heldAnswer: string | undefined;
      if (options.hold !== undefined) heldAnswer = await proxy.held;
      else await waitUntil(() => existsSync(marker) && existsSync(join(out, 'checkpoints')), 'the trap');
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      const killedLog = [...proxy.log];
      expect(readdirSync(join(out, 'checkpoints')).filter((file) => file.endsWith('.json'))).toHaveLength(1);
      if (options.dropCheckpoints) rmSync(join(out, 'checkpoints'), { recursive: true });
      options.beforeResume?.(out, heldAnswer);
      await options.awaitBeforeResume?.();
      const resumed = await runArcbench(['resume', out], dir);
      expect(resumed.code, resumed.stderr).toBe(0);
      const folder = readRunFolder(out);
      expect(folder.report.status).toBe('completed');
      expect(readdirSync(join(out, 'checkpoints'))).toEqual([]);
      const [record] = currentEpisodes(folder.records);
      return { out, folder, record: record!, log: [...proxy.log], killedLog, stderr: resumed.stderr };
    } finally {
      await proxy.close();
    }
  }

  /** The continued episode is the uninterrupted one: same guid throughout, actions, usage, recording. */
  async function expectContinued(result: Awaited<ReturnType<typeof killAndResume>>, fromStep: number): Promise<void> {
    const { record, log, out } = result;
    const firstGuid = log[0]!.guid;
    expect(record.guid).toBe(firstGuid);
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS, continued: { from_attempt: 1, from_step: fromStep } });
    expect(record.restarted).toBeUndefined();
    // The service's action log: one session, the uninterrupted episode's commands, each once.
    expect(new Set(log.map((c) => c.guid))).toEqual(new Set([firstGuid]));
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    expect(record.usage).toEqual(reference.record.usage);
    expect(record.model_calls).toEqual(reference.record.model_calls);
    expect(record.runs.map(({ sequence: _s, guid: _g, ...run }) => run)).toEqual(reference.record.runs.map(({ sequence: _s, guid: _g, ...run }) => run));
    const recording = await recordingOf(out, record);
    expect(recording).toHaveLength(TRAPPED_ACTIONS + 1);
    expect(playedLines(recording)).toEqual(playedLines(reference.recording));
    // The card taken over was closed by the resume, and no other card was opened.
    expect(result.folder.report.cards.map((c) => [c.attempt, c.state, c.continued_by_attempt])).toEqual([[1, 'closed', 2]]);
  }

  it('killed while the agent decides: continues the same session at that step', async () => {
    const result = await killAndResume('decides', {});
    expect(result.killedLog).toHaveLength(TRAP_STEP + 1);
    await expectContinued(result, TRAP_STEP);
    expect(result.stderr).toMatch(/continuing card \S+ \(ck, attempt 1\): flod-\w+ #0 from step 7; about 1\d\.\d minutes left/);
  }, 90_000);

  it('killed with its action held before the service saw it: sends that action once, then goes on', async () => {
    // Command 0 is the RESET; command TRAP_STEP + 1 is the action decided at step TRAP_STEP.
    const result = await killAndResume('held-request', { hold: (_command, _guid, index) => (index === TRAP_STEP + 1 ? 'request' : undefined) });
    expect(result.killedLog).toHaveLength(TRAP_STEP + 1);
    await expectContinued(result, TRAP_STEP);
  }, 90_000);

  it('killed after the service counted an action whose answer was lost: plays again from a new RESET, saying why', async () => {
    const result = await killAndResume('held-answer', { hold: (_command, _guid, index) => (index === TRAP_STEP + 1 ? 'answer' : undefined) });
    const { record, log } = result;
    expect(result.killedLog).toHaveLength(TRAP_STEP + 2);
    expect(record.restarted?.reason).toMatch(/reached the service .* but its answer was lost/);
    expect(record.continued).toBeUndefined();
    expect(record.guid).not.toBe(log[0]!.guid);
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS });
    // Nothing more went to the first session after the kill; the new one is the uninterrupted episode.
    expect(log.filter((c) => c.guid === log[0]!.guid)).toHaveLength(TRAP_STEP + 2);
    expect(commandMoves(log.filter((c) => c.guid === record.guid))).toEqual(commandMoves(reference.log));
  }, 90_000);

  it('killed after the answer was recorded, before its checkpoint: goes on from the recorded answer, sending nothing twice', async () => {
    // The state on disk when the process dies right after the recording thread wrote the answer's line:
    // the checkpoint still has the action pending, and the recording (plain lines here) has one line more.
    const result = await killAndResume('recorded-answer', {
      hold: (_command, _guid, index) => (index === TRAP_STEP + 1 ? 'answer' : undefined),
      beforeResume: (out, answer) => {
        const [file] = readdirSync(join(out, 'recordings'));
        const checkpoint = readFileSync(join(out, 'checkpoints', readdirSync(join(out, 'checkpoints')).find((file) => file.endsWith('.json'))!), 'utf8');
        const { pending } = JSON.parse(checkpoint) as { pending: { action: { id: number; x?: number; y?: number; reasoning?: unknown } } };
        const answered = JSON.parse(answer!) as { game_id: string };
        // The line as the runner writes it: the service's answer, with the action as sent.
        const data = { ...answered, action_input: actionInputOf(answered.game_id, pending.action) };
        appendFileSync(join(out, 'recordings', file!), `${JSON.stringify({ timestamp: new Date().toISOString(), data })}\n`);
      },
    });
    const { record, log } = result;
    expect(record.restarted).toBeUndefined();
    expect(record.guid).toBe(log[0]!.guid);
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS, continued: { from_attempt: 1, from_step: TRAP_STEP + 1 } });
    expect(commandMoves(log)).toEqual(commandMoves(reference.log));
    expect(record.usage).toEqual(reference.record.usage);
    expect(await recordingOf(result.out, record)).toHaveLength(TRAPPED_ACTIONS + 1);
  }, 90_000);

  it('its card closed on the service meanwhile: plays again from a new RESET on a new card, saying why', async () => {
    const result = await killAndResume('card-closed', {
      beforeResume: (out) => {
        const cardId = (JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { cards: { card_id: string }[] }).cards[0]!.card_id;
        closing.push(closeOnServer(cardId));
      },
      awaitBeforeResume: () => Promise.all(closing),
    });
    const { record, folder } = result;
    expect(record.restarted?.reason).toMatch(/the service closed its card \S+ at /);
    expect(record.continued).toBeUndefined();
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS });
    expect(folder.report.cards.map((c) => [c.attempt, c.state])).toEqual([
      [1, 'closed'],
      [2, 'closed'],
    ]);
  }, 90_000);

  it('its checkpoint of the wrong shape (its step as text): plays again from a new RESET, its record naming the file and field', async () => {
    const result = await killAndResume('wrong-shape', {
      beforeResume: (out) => {
        const file = readdirSync(join(out, 'checkpoints')).find((name) => name.endsWith('.json'));
        const path = join(out, 'checkpoints', file!);
        const checkpoint = JSON.parse(readFileSync(path, 'utf8')) as { step: unknown };
        writeFileSync(path, JSON.stringify({ ...checkpoint, step: String(checkpoint.step) }));
      },
    });
    const { record, log } = result;
    expect(record.restarted?.reason).toMatch(/its checkpoint checkpoints\/flod-\w+\.ck\.0\.json cannot be used: .*\bstep\b/);
    expect(record.continued).toBeUndefined();
    expect(record.guid).not.toBe(log[0]!.guid);
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS });
    expect(commandMoves(log.filter((c) => c.guid === record.guid))).toEqual(commandMoves(reference.log));
  }, 90_000);

  it('on the in-process service: continuing is impossible, the episode is played again and its record says why', async () => {
    const { record } = await killAndResume('in-process', { inProcess: true });
    expect(record).toMatchObject({ attempt: 2, outcome: 'budget', actions: TRAPPED_ACTIONS });
    expect(record.restarted?.reason).toMatch(/in-process service, which ended with its attempt's process/);
    expect(record.continued).toBeUndefined();
  }, 90_000);

  it('a folder without checkpoints (written before them) resumes as before: from a new RESET, its card closed', async () => {
    const result = await killAndResume('no-checkpoints', { dropCheckpoints: true });
    const { record, log, folder } = result;
    expect(record.continued).toBeUndefined();
    // Its recording shows it was in flight; with no checkpoint, the record says so (issue 33).
    expect(record.restarted?.reason).toBe('it was in flight when its process died, before a checkpoint of it was written');
    expect(record.guid).not.toBe(log[0]!.guid);
    expect(commandMoves(log.filter((c) => c.guid === record.guid))).toEqual(commandMoves(reference.log));
    expect(folder.report.cards.map((c) => [c.attempt, c.state])).toEqual([
      [1, 'closed'],
      [2, 'closed'],
    ]);
  }, 90_000);
});
