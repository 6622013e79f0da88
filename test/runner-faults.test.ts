/**
 * The fault suite (issue 10): the runner through our fault-injecting proxy (test/support/faultProxy.ts)
 * against our server with 3 backends and an affinity cookie rotating every 5 answers, one case per
 * fault. Each case checks, from the server's own records: no episode lost; no action replayed (the
 * server counted the runner's actions plus the answers that were lost); every card the server opened is
 * closed (but for the opens whose answer was lost, which run.json counts); the local and service scores
 * differ exactly when an answer was lost; and the harmless faults leave no trace at all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FrameResponse, ScorecardAnswer } from '../src/protocol/index.ts';
import { RunLedger } from '../src/episode/runLedger.ts';
import { loadExperiment } from '../src/runner/config/loader.ts';
import { parseEpisodeLog } from '../src/runfolder/episodeLog.ts';
import { runExperiment, type RunReport } from '../src/runner/runExperiment.ts';
import { startServer } from '../src/reference/server/index.ts';
import type { WireRequest } from './support/httpWire.ts';
import { type Fault, type FaultPlan, type ProxiedRequest, startFaultProxy } from './support/faultProxy.ts';

const KEY = 'fault-suite-key';
const dir = mkdtempSync(join(tmpdir(), 'arcbench-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isAction = (path: string) => /\/api\/cmd\/ACTION\d$/.test(path);
const lostAction = (request: ProxiedRequest) => isAction(request.path);

/** A plan that puts `fault` on the `nth` (1-based) request that `matches`, once. */
function once(fault: Fault, nth: number, matches: (request: WireRequest) => boolean = (r) => isAction(r.path)): FaultPlan {
  let seen = 0;
  return (request) => (matches(request) && ++seen === nth ? fault : undefined);
}

/** A plan that puts `fault` on every `every`-th request that `matches`. */
function every(fault: Fault, period: number, matches: (request: WireRequest) => boolean = () => true): FaultPlan {
  let seen = 0;
  return (request) => (matches(request) && ++seen % period === 0 ? fault : undefined);
}

interface CaseResult {
  report: RunReport;
  episodes: ReturnType<typeof parseEpisodeLog>;
  /** Every card the server holds for the key, as the server has it. */
  cards: ScorecardAnswer[];
  lost: number;
  requests: readonly ProxiedRequest[];
}

/** Runs a small experiment through the proxy with `plan`; returns what the runner wrote and the server holds. */
async function runThroughFaults(name: string, plan: FaultPlan, requestMs = 3000): Promise<CaseResult> {
  const server = await startServer({ backendCount: 3, rotateAffinity: 5, serviceOptions: { seed: 7 }, logger: false });
  const proxy = await startFaultProxy(server.url, plan);
  try {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      `name: ${name}\ntarget: { url: "${proxy.url}", api_key: ${KEY} }\ngames: [crat, lamp]\nagents: [{ use: random }]\n` +
        `episodes: 2\nseed: 5\nbudgets: { max_actions: 12 }\nconcurrency: 2\nrecordings: false\nrate_limit: false\n` +
        `timeouts: { request_ms: ${requestMs}, max_retries: 3 }\n`,
    );
    const out = join(dir, name);
    const { report } = await runExperiment(await loadExperiment(file), { out });
    const episodes = parseEpisodeLog(readFileSync(join(out, 'episodes.jsonl'), 'utf8'));
    const cards = server.backends.flatMap((backend) => backend.scorecardIds(KEY).map((id) => backend.getScorecard(KEY, id)));
    return { report, episodes, cards, lost: proxy.lostAnswers(lostAction), requests: proxy.requests };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** What must hold whatever the fault. `orphans`: cards an open whose answer was lost left open. */
function expectFaithful({ report, episodes, cards, lost }: CaseResult, orphans = 0) {
  expect(report.totals.episodes, 'no episode lost').toBe(report.totals.planned_episodes);
  expect(episodes).toHaveLength(report.totals.planned_episodes);
  const served = cards.reduce((sum, card) => sum + card.total_actions!, 0);
  // Lost answers the runner knows of (out of step) are in its count; the others it cannot know landed.
  const unknownToRunner = lost - report.totals.answers_lost;
  expect(unknownToRunner).toBeGreaterThanOrEqual(0);
  expect(served, "no action replayed: the server counted the runner's actions plus the lost answers it could not count").toBe(
    report.totals.actions + unknownToRunner,
  );
  const open = cards.filter((card) => card.published_at == null);
  expect(open, 'every card the server opened is closed, but for lost opens').toHaveLength(orphans);
  for (const card of open) expect(card.total_actions).toBe(0);
  expect(report.totals.unconfirmed_card_opens).toBeGreaterThanOrEqual(orphans);
  for (const agent of report.agents) {
    expect(agent.scorecard, 'the card was closed and read').not.toBeNull();
    expect(
      agent.score_differences!.length > 0,
      `score differences ${JSON.stringify(agent.score_differences)} exactly when an answer was lost that the runner could not count (${unknownToRunner})`,
    ).toBe(unknownToRunner > 0);
  }
}

function expectHarmless(result: CaseResult) {
  expectFaithful(result);
  expect(result.lost).toBe(0);
  expect(result.report.totals.errors).toBe(0);
  expect(result.report.status, 'exit 0').toBe('completed');
}

/** An action fault that loses the answer of an action the server applied: one episode ends in error. */
function expectOneLostAction(result: CaseResult, kind: RegExp) {
  expectFaithful(result);
  expect(result.lost).toBe(1);
  const failed = result.episodes.filter((e) => e.outcome === 'error');
  expect(failed).toHaveLength(1);
  expect(failed[0]!.error!.kind).toMatch(kind);
  expect(result.report.status).toBe('failed');
}

describe('the runner through a faulty network', () => {
  it('429 with Retry-After: retried, harmless', async () => {
    const result = await runThroughFaults('429-retry-after', every({ kind: 'status', status: 429, when: 'before', retryAfter: '0' }, 5));
    expectHarmless(result);
    expect(result.report.totals.retries_by_cause['429']).toBeGreaterThan(3);
  });

  it('429 without Retry-After: backed off and retried, harmless', async () => {
    const result = await runThroughFaults('429-no-retry-after', every({ kind: 'status', status: 429, when: 'before' }, 7));
    expectHarmless(result);
    expect(result.report.totals.retries_by_cause['429']).toBeGreaterThan(2);
  });

  it('Set-Cookie dropped from answers: the jar keeps the older value, harmless', async () => {
    const result = await runThroughFaults(
      'cookies-dropped',
      every({ kind: 'drop_cookies' }, 3, (r) => isAction(r.path)),
    );
    expectHarmless(result);
  });

  for (const status of [500, 502, 503, 504]) {
    it(`${status} before forwarding: the action did not land; its episode ends, nothing was lost`, async () => {
      const result = await runThroughFaults(`${status}-before`, once({ kind: 'status', status, when: 'before' }, 4));
      expectFaithful(result);
      expect(result.lost).toBe(0);
      const failed = result.episodes.filter((e) => e.outcome === 'error');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.error!.kind).toBe(status === 500 ? 'api' : 'transport_ambiguous');
    });

    it(`${status} after forwarding: the action landed, its answer is lost and not replayed`, async () => {
      expectOneLostAction(
        await runThroughFaults(`${status}-after`, once({ kind: 'status', status, when: 'after' }, 4)),
        status === 500 ? /^api$/ : /^transport_ambiguous$/,
      );
    });
  }

  it('connection reset before the answer', async () => {
    expectOneLostAction(await runThroughFaults('reset-before-answer', once({ kind: 'reset', when: 'before_answer' }, 5)), /^transport_ambiguous$/);
  });

  it('connection reset in the middle of the answer', async () => {
    expectOneLostAction(await runThroughFaults('reset-mid-answer', once({ kind: 'reset', when: 'mid_answer' }, 5)), /^transport_ambiguous$/);
  });

  it('a truncated body', async () => {
    expectOneLostAction(await runThroughFaults('truncated', once({ kind: 'truncated' }, 6)), /^transport_ambiguous$/);
  });

  it('a body that is not JSON', async () => {
    expectOneLostAction(await runThroughFaults('invalid-json', once({ kind: 'invalid_json' }, 6)), /^transport_protocol$/);
  });

  it('an answer slower than the request timeout', async () => {
    expectOneLostAction(await runThroughFaults('slow', once({ kind: 'slow', delayMs: 2500 }, 3), 400), /^transport_ambiguous$/);
  });

  it('an answer of another session sent again before the real one, as a balancer that answers twice', async () => {
    let actions = 0;
    const plan: FaultPlan = (request, _index, { otherSessionAnswered }) => {
      if (!isAction(request.path) || !otherSessionAnswered) return undefined;
      return ++actions === 3 ? { kind: 'duplicate' } : undefined;
    };
    const result = await runThroughFaults('duplicate', plan);
    expectOneLostAction(result, /^transport_protocol$/);
    const failed = result.episodes.find((e) => e.outcome === 'error')!;
    expect(failed.error!.message).toMatch(/belongs to another request/);
    // The action reached the server, which counted it: so does the runner, and the scores agree.
    expect(failed.answers_lost).toBe(1);
    expect(result.report.totals.answers_lost).toBe(1);
    expect(result.report.agents[0]!.score_differences).toEqual([]);
  });

  const isOpen = (r: WireRequest) => r.path === '/api/scorecard/open';
  const isClose = (r: WireRequest) => r.path === '/api/scorecard/close';

  it('scorecard open answered 502 before forwarding: opened on the retry, no card left behind', async () => {
    const result = await runThroughFaults('open-before', once({ kind: 'status', status: 502, when: 'before' }, 1, isOpen));
    expectFaithful(result, 0);
    expect(result.report.totals.unconfirmed_card_opens).toBe(1);
    expect(result.report.status).toBe('completed');
  });

  it('scorecard open whose answer is lost after it landed: repeated once, the empty card it left is counted', async () => {
    const result = await runThroughFaults('open-after', once({ kind: 'status', status: 504, when: 'after' }, 1, isOpen));
    expectFaithful(result, 1);
    expect(result.report.totals.unconfirmed_card_opens).toBe(1);
    expect(result.requests.filter((r) => isOpen(r as unknown as WireRequest))).toHaveLength(2);
  });

  it('scorecard close answered 502 before forwarding: retried and closed', async () => {
    const result = await runThroughFaults('close-before', once({ kind: 'status', status: 502, when: 'before' }, 1, isClose));
    expectFaithful(result);
    expect(result.report.status).toBe('completed');
  });

  it('scorecard close whose answer is lost after it landed: the retry finds it closed and reads it', async () => {
    const result = await runThroughFaults('close-after', once({ kind: 'reset', when: 'before_answer' }, 1, isClose));
    expectFaithful(result);
    expect(result.report.agents[0]!.close_error).toBeNull();
    expect(result.report.status).toBe('completed');
  });
});

describe('an action whose answer was lost out of step', () => {
  const frame = (fields: Partial<FrameResponse>) => ({ guid: 'g', levels_completed: 0, state: 'NOT_FINISHED', full_reset: false, ...fields }) as FrameResponse;

  it('counts as the service counted it: a game action as one action, a RESET as a level or a full reset by the rules', () => {
    const ledger = new RunLedger(() => 0);
    ledger.recordReset(frame({ full_reset: true }));
    ledger.recordAction(frame({}));
    ledger.recordLostAnswer(2, 'g'); // one action on the level
    ledger.recordLostAnswer(0, 'g'); // mid-level: a level reset, 1 action and 1 reset
    ledger.recordLostAnswer(0, 'g'); // right after it: a full reset, a new run
    expect(ledger.recordedRuns().map((r) => [r.actions, r.resets, r.levels_completed])).toEqual([
      [3, 1, 0],
      [0, 0, 0],
    ]);
    expect(ledger.answersLost).toBe(3);
  });
});
