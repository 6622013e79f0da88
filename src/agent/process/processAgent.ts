/**
 * An agent that is a child process speaking `arcbench.agent/1` (docs/agent-protocol.md), seen by the
 * runner through the same contract as a TypeScript plugin. One process per episode: an episode's agent
 * state cannot leak into the next, and a crash costs one episode; the price is a process start per
 * episode (~30 ms for python3 and the layer, more for an agent that imports much).
 */
import { z } from 'zod';
import { actionOfId, stop } from '../actions.ts';
import type { Agent, AgentContext, AgentDecision, EpisodeEnd, StepInfo } from '../contract.ts';
import { type AgentDefinition, defineAgent } from '../defineAgent.ts';
import type { AgentDescription } from '../description.ts';
import type { ModelCallTranscript } from '../transcript.ts';
import type { ModelCallUsage } from '../usage.ts';
import { DollarBudgetSpent } from '../gateway/dollarBudgetSpent.ts';
import type { ModelGatewaySettings } from '../gateway/gatewaySettings.ts';
import { type EpisodeGateway, startEpisodeGateway } from '../gateway/episodeGateway.ts';
import type { FrameResponse } from '../../protocol/index.ts';
import { type AgentCommand, AgentProcess, AgentProcessError, STOP_GRACE_MS } from './agentProcess.ts';
import { UnrestorableStateError } from '../unrestorable.ts';
import type { OutputLine } from './boundedOutput.ts';
import { ForkServers } from './forkServer.ts';
import { PYTHON_HOST_SCRIPT } from './processAgentSource.ts';
import {
  type AgentAnswer,
  endLine,
  errorMessage,
  frameLine,
  helloLine,
  MAX_SNAPSHOT_LINE_BYTES,
  restoreLine,
  snapshotLine,
  startLine,
  stopLine,
} from './protocolMessages.ts';

/** Time an agent gets to exit by itself once its episode is over (within the runner's finish grace). */
const END_GRACE_MS = 900;

/** Any mapping: the agent's own code checks its params (`self.params` in Python). */
const anyParams = z.record(z.string(), z.unknown());

/**
 * `described` is what the program said of itself in its hello at load time (empty when nothing);
 * `gateway`, the entry's `model_gateway:`, puts a model gateway between the agent and its provider.
 */
export function processAgentDefinition(command: AgentCommand, name: string, described: AgentDescription, gateway?: ModelGatewaySettings): AgentDefinition {
  // Python agents: the module imported once, a child forked per episode (forkServer.ts).
  const forks = command.args[0] === PYTHON_HOST_SCRIPT ? new ForkServers() : undefined;
  return defineAgent({
    name,
    description: `agent process ${command.describe} (arcbench.agent/1)`,
    params: anyParams,
    create: (context) => createProcessAgent(command, context, forks, gateway),
    describe: () => described,
    ...(forks === undefined ? {} : { close: () => forks.close() }),
  });
}

async function createProcessAgent(
  command: AgentCommand,
  context: AgentContext<Record<string, unknown>>,
  forks: ForkServers | undefined,
  settings: ModelGatewaySettings | undefined,
): Promise<Agent> {
  const gateway = settings === undefined ? undefined : await startEpisodeGateway(settings, context);
  const env = gateway === undefined ? command.env : { ...command.env, ...gateway.gateway.env() };
  const logLine: OutputLine = (stream, line) => context.log?.('debug', line, { agent: context.label, stream });
  // A child forked by its server inherits the server's environment: an episode with a gateway starts its own process.
  const forked =
    gateway === undefined ? await forks?.child(command, logLine, (sentence) => context.log?.('warn', sentence, { agent: context.label })) : undefined;
  // A forked child was loaded by its server, which answered hello.
  if (forked !== undefined) return processAgent(forked, context, undefined);
  const child = new AgentProcess({ ...command, ...(env === undefined ? {} : { env }) }, logLine);
  // The runner stops waiting for create() at a deadline or Ctrl-C; the process must not outlive that.
  const onAbort = () => void child.close(stopLine('stopped'), STOP_GRACE_MS);
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    expectHello(await child.request(helloLine()));
  } catch (error) {
    await child.close(undefined, 0);
    await gateway?.gateway.close();
    throw error;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
  }
  return processAgent(child, context, gateway);
}

/**
 * The agent over the protocol. Its snapshots (§7) are asked for only once the runner has asked for one
 * (it checkpoints this episode): then after every action the agent answers, while it waits for the
 * action's frame; `snapshot()` hands the runner the last one.
 */
function processAgent(child: AgentProcess, context: AgentContext<Record<string, unknown>>, gateway: EpisodeGateway | undefined): Agent {
  let started = false;
  let snapshots = false;
  let snapshot: unknown = null;
  return {
    async act(frame: FrameResponse, step: StepInfo): Promise<AgentDecision> {
      const line = started ? frameLine(step, frame) : startLine(episodeStart(context), frame);
      started = true;
      const before = gateway?.calls() ?? 0;
      let decision: AgentDecision;
      try {
        decision = decisionOf(await child.request(line), context, { gatewaySawCalls: (gateway?.calls() ?? 0) > before, gateway: gateway?.gateway });
      } catch (error) {
        throw spentOr(error, gateway);
      }
      if (snapshots && !('stop' in decision)) snapshot = snapshotOf(await child.request(snapshotLine(), MAX_SNAPSHOT_LINE_BYTES), step.step);
      return decision;
    },
    snapshot(): unknown {
      snapshots = true;
      return snapshot;
    },
    async restore(state: unknown): Promise<void> {
      snapshots = true;
      snapshot = state;
      // Taken before the first decision: the episode starts as a new one would.
      if (state === null) return;
      const kept = state as { state?: unknown; refused?: string };
      if (kept.refused !== undefined) {
        await child.close(undefined, 0);
        throw new UnrestorableStateError(kept.refused);
      }
      const answer = await child.request(restoreLine(episodeStart(context), kept.state));
      if (answer.type === 'error') throw new AgentProcessError(errorMessage(answer), answer.traceback);
      if (answer.type !== 'restored') throw new AgentProcessError(`answered restore with "${answer.type}"; the answer is {"type":"restored"}`);
      started = true;
    },
    async finish(end: EpisodeEnd): Promise<void> {
      // Cut while deciding (a deadline, Ctrl-C): told to stop, and killed soon after.
      if (child.deciding) await child.close(stopLine(end.outcome), STOP_GRACE_MS);
      else await child.close(endLine(end), END_GRACE_MS);
      await gateway?.gateway.close();
    },
  };
}

/** An agent that failed once its gateway had refused a call for the dollar budget ended on the budget. */
function spentOr(error: unknown, gateway: EpisodeGateway | undefined): unknown {
  const refused = gateway?.gateway.refused;
  if (refused === undefined || !(error instanceof AgentProcessError)) return error;
  return new DollarBudgetSpent(`${refused}; the agent then failed: ${error.message}`);
}

/** What the runner keeps of a `snapshot` answer: the agent's state, or why it has none (a resume then starts over). */
function snapshotOf(answer: AgentAnswer, step: number): { state: unknown } | { refused: string } {
  if (answer.type === 'error') throw new AgentProcessError(errorMessage(answer), answer.traceback);
  if (answer.type !== 'snapshot') throw new AgentProcessError(`answered snapshot with "${answer.type}"; the answer is {"type":"snapshot","state":…}`);
  if (answer.refused !== undefined) return { refused: `its state after step ${step} could not be snapshotted: ${answer.refused}` };
  return { state: answer.state ?? null };
}

function episodeStart(context: AgentContext<Record<string, unknown>>) {
  return {
    game: context.game,
    seed: context.seed,
    episode: context.episode,
    label: context.label,
    card_id: context.cardId ?? '',
    params: context.params,
    budgets: { ...context.budgets },
  };
}

function expectHello(answer: AgentAnswer): void {
  if (answer.type === 'error') throw new AgentProcessError(errorMessage(answer), answer.traceback);
  if (answer.type !== 'hello')
    throw new AgentProcessError(`answered hello with "${answer.type}"; the first answer is {"type":"hello","protocol":"arcbench.agent/1"}`);
}

/** How an answer's own usage is counted: not at all for a step whose calls the gateway saw. */
interface Counting {
  readonly gatewaySawCalls: boolean;
  readonly gateway: { addSpent(dollars: number | null | undefined): void } | undefined;
}

/** The runner's decision for an answer; model usage and transcripts in it are reported for the step. */
function decisionOf(answer: AgentAnswer, context: AgentContext<unknown>, counting: Counting): AgentDecision {
  switch (answer.type) {
    case 'done':
      // Calls made for a decision that was never sent (the opening RESET arcbench answers itself).
      report(context, counting, separateUsage(undefined, answer.usage).usage, answer.transcripts);
      return stop(answer.reason, answer.details);
    case 'error':
      throw new AgentProcessError(errorMessage(answer), answer.traceback);
    case 'hello':
    case 'snapshot':
    case 'restored':
      throw new AgentProcessError(`answered a frame with "${answer.type}"; answer with act, done or error`);
    case 'act': {
      const { reasoning, usage } = separateUsage(answer.reasoning, answer.usage);
      report(context, counting, usage, answer.transcripts);
      if (answer.action === 6 && (answer.x === undefined || answer.y === undefined))
        throw new AgentProcessError('answered ACTION6 without x and y (whole numbers 0..63)');
      return actionOfId(
        { id: answer.action, ...(answer.x === undefined ? {} : { x: answer.x }), ...(answer.y === undefined ? {} : { y: answer.y }) },
        reasoning,
      );
    }
  }
}

/**
 * The step's calls as the answer gives them: each transcript kept and counted from its usage, then the
 * usage listed apart. When the gateway saw calls in the step it has counted and kept them already: the
 * answer's figures (its usage, a usage in its reasoning, its transcripts) are the same calls seen from
 * inside, and are neither counted nor kept again (a transcript is always its count's record: verify).
 */
function report(context: AgentContext<unknown>, counting: Counting, usage: readonly unknown[], transcripts: readonly unknown[] | undefined): void {
  if (counting.gatewaySawCalls) return;
  for (const call of transcripts ?? []) {
    const kept = call as ModelCallTranscript;
    if (context.keepsTranscripts !== false) context.keepTranscript(kept);
    count(context, counting, kept.usage);
  }
  for (const call of usage) count(context, counting, call as ModelCallUsage);
}

function count(context: AgentContext<unknown>, counting: Counting, call: ModelCallUsage): void {
  context.reportUsage(call);
  counting.gateway?.addSpent(call.cost_usd);
}

/**
 * The model calls of an answer: its `usage` field, or else a `usage` object inside its reasoning (the
 * shape published replays carry), which is then taken out: the runner puts the step's usage beside
 * the rest of the reasoning, as for any agent that reports usage.
 */
function separateUsage(reasoning: unknown, usage: unknown): { reasoning: unknown; usage: readonly unknown[] } {
  if (usage !== undefined) return { reasoning, usage: Array.isArray(usage) ? usage : [usage] };
  if (reasoning === null || typeof reasoning !== 'object' || Array.isArray(reasoning)) return { reasoning, usage: [] };
  const { usage: inner, ...rest } = reasoning as Record<string, unknown>;
  if (inner === null || typeof inner !== 'object') return { reasoning, usage: [] };
  const calls = Array.isArray(inner) ? inner : [inner];
  return { reasoning: Object.keys(rest).length === 0 ? undefined : rest, usage: calls };
}
