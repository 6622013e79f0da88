/**
 * One episode of the llm agent: each frame becomes a turn (facts, notes, frame), the model answers
 * with an action (or, with `max_actions_per_turn` over 1, a batch of them), and each action goes back
 * to the runner with the model's one-line rationale as its reasoning. A reply that cannot be played is
 * shown its error and tried once more; a second one ends the episode with an error that quotes it.
 * When the game is over the agent sends the RESET itself: there is nothing else to choose, so no call
 * is paid for it. The provider (providers/) is the only part that knows the API.
 */
import { actionOfId, reset, type AgentAction, type FrameResponse, type GameDescriptor, type Grid, latestGrid } from 'arcbench';
import { Batch } from './batch.ts';
import { isContextOverflow } from './contextOverflow.ts';
import { type FrameFormat, frameParts } from './frameFormats.ts';
import { type CurrentTurn, Memory } from './memory.ts';
import type { Provider } from './providers/provider.ts';
import { gridOf, gridText, SAVED_VERSION, type SavedPlayer, savedPlayer } from './savedState.ts';
import { type Checked, jsonInstructions, MAX_RATIONALE_CHARS, type ModelChoice, readJsonAnswer, readToolCalls, type ToolAnswer, toolsFor } from './tools.ts';
import type { Entry, ModelReply } from './conversation.ts';
import { choosableActions, describeAction, type SentAction, turnText } from './turnText.ts';

export const DEFAULT_SYSTEM_PROMPT = [
  'You play a turn-based puzzle game on a 64x64 grid of colours 0-15, one action per turn. Nobody tells you the rules:',
  'find them out by acting and watching what changes. Each turn shows the game, the result of your last action and the frame.',
  "ACTION1 to ACTION5 are the game's own keys (often up, down, left, right and an interact key); ACTION6 clicks the cell",
  'at column x and row y (0-63, from the top-left); ACTION7 undoes, in games that offer it; RESET restarts the level.',
  'Completing a level moves you to the next; the game is won when every level is completed. Fewer actions score higher.',
  'Keep what you learn (rules, plans, dead ends) in your notes: they are shown every turn, while older turns are only summarised.',
].join(' ');

/** Added to the system prompt when the model may plan several actions a turn. */
export function batchInstructions(maxActions: number): string {
  return (
    `You may plan up to ${maxActions} actions in one reply: call the action tools in the order to play them. ` +
    'Give each its expect_change (and a short prediction): the batch stops after the first action whose effect you predicted wrong, ' +
    'at a level change and at GAME_OVER, and the next turn tells you where it stopped and why.'
  );
}

/** Replies that only wrote notes, answered "saved" and asked again, before it counts as a mistake. */
const MAX_NOTES_ONLY_REPLIES = 2;

export interface PlayerOptions {
  readonly provider: Provider;
  readonly game: GameDescriptor;
  readonly model: string;
  readonly frameFormat: FrameFormat;
  readonly output: 'tools' | 'json';
  readonly systemPrompt: string;
  readonly contextTokens: number;
  readonly recentTurns: number;
  readonly compaction: 'native' | 'summary' | 'off';
  readonly maxActionsPerTurn: number;
}

/** The reply's own text stands in for a rationale the model did not put in its tool call. */
function withRationale(choice: ModelChoice, reply: ModelReply): ModelChoice {
  const text = reply.text?.trim();
  return choice.rationale !== undefined || !text ? choice : { ...choice, rationale: text.slice(0, MAX_RATIONALE_CHARS) };
}

function decision(choice: SentAction, reasoning: string | undefined): AgentAction {
  return actionOfId(choice, reasoning);
}

export class Player {
  readonly #memory: Memory;
  readonly #options: PlayerOptions;
  #before: { grid: Grid; levelsCompleted: number } | undefined;
  #lastAction: SentAction | undefined;
  #autoReset = false;
  #batch: Batch | undefined;
  #batches = 0;
  #batchReport: string | undefined;

  constructor(options: PlayerOptions) {
    this.#options = options;
    this.#memory = new Memory({
      systemPrompt: options.maxActionsPerTurn > 1 ? `${options.systemPrompt}\n${batchInstructions(options.maxActionsPerTurn)}` : options.systemPrompt,
      contextTokens: options.contextTokens,
      recentTurns: options.recentTurns,
      wholeFrame: (grid) => frameParts(options.frameFormat === 'diff' ? 'text' : options.frameFormat, grid, undefined),
    });
  }

  async act(frame: FrameResponse, actions: number): Promise<AgentAction> {
    const grid = latestGrid(frame);
    const batched = this.#nextOfBatch(frame, grid);
    if (batched !== undefined) return batched;
    if (frame.state === 'GAME_OVER') {
      this.#remember(frame, grid, { id: 0 }, true);
      return reset('the game was over: restarting the level');
    }
    const allowed = choosableActions(frame);
    const facts = {
      game: this.#options.game,
      frame,
      before: this.#before,
      lastAction: this.#lastAction,
      actions,
      autoReset: this.#autoReset,
      ...(this.#batchReport === undefined ? {} : { batchReport: this.#batchReport }),
    };
    this.#batchReport = undefined;
    const text = turnText(facts);
    const instructions = this.#options.output === 'json' ? { instructions: jsonInstructions(allowed) } : {};
    const turn = (): CurrentTurn => ({ text, frame: frameParts(this.#options.frameFormat, grid, this.#memory.lastGrid()), ...instructions });
    const inView = this.#memory.lastGrid();
    const current = turn();
    await this.#compactIfNeeded(current, allowed, false);
    // The frame is drawn again only when a compaction took the frame it was diffed against out of view.
    const ask = () => this.#choose(this.#memory.lastGrid() === inView ? current : turn(), grid, allowed);
    // A request the server refused as longer than the model's window is compacted and asked once more.
    const { choice, then } = await ask().catch(async (error: unknown) => {
      if (!isContextOverflow(error) || !(await this.#compactIfNeeded(current, allowed, true))) throw error;
      return ask();
    });
    this.#remember(frame, grid, choice, false);
    if (then === undefined) return decision(choice, choice.rationale);
    this.#batch = new Batch(++this.#batches, [choice, ...then]);
    return decision(choice, this.#batch.label(1));
  }

  /** Everything the next decision depends on, as JSON (the agent's snapshot()). */
  snapshot(): SavedPlayer {
    const before = this.#before;
    return {
      version: SAVED_VERSION,
      memory: this.#memory.saved(),
      before: before === undefined ? null : { grid: gridText(before.grid), levelsCompleted: before.levelsCompleted },
      lastAction: this.#lastAction ?? null,
      autoReset: this.#autoReset,
      batch: this.#batch?.saved() ?? null,
      batches: this.#batches,
      batchReport: this.#batchReport ?? null,
      provider: this.#options.provider.snapshot?.() ?? null,
    };
  }

  /** Puts back a snapshot, on a player just made for the same episode. */
  restore(state: unknown): void {
    const saved = savedPlayer(state);
    this.#memory.restoreSaved(saved.memory);
    this.#before = saved.before === null ? undefined : { grid: gridOf(saved.before.grid), levelsCompleted: saved.before.levelsCompleted };
    this.#lastAction = saved.lastAction ?? undefined;
    this.#autoReset = saved.autoReset;
    this.#batch = saved.batch === null ? undefined : Batch.fromSaved(saved.batch);
    this.#batches = saved.batches;
    this.#batchReport = saved.batchReport ?? undefined;
    if (saved.provider !== null) this.#options.provider.restore?.(saved.provider);
  }

  /** The batch's next action, or undefined when there is no batch or it ends here (the report kept). */
  #nextOfBatch(frame: FrameResponse, grid: Grid): AgentAction | undefined {
    const batch = this.#batch;
    if (batch === undefined || this.#before === undefined) return undefined;
    const next = batch.next(this.#before, frame);
    if ('report' in next) {
      this.#batch = undefined;
      this.#batchReport = next.report;
      return undefined;
    }
    this.#remember(frame, grid, next.choice, false);
    return decision(next.choice, batch.label(next.position));
  }

  #remember(frame: FrameResponse, grid: Grid, sent: SentAction, autoReset: boolean): void {
    this.#before = { grid, levelsCompleted: frame.levels_completed };
    this.#lastAction = sent;
    this.#autoReset = autoReset;
  }

  /**
   * Compacts when the request for `current` would pass context_tokens, or, `forced` (the server refused
   * the request as too long), whenever there are turns to fold. True when it compacted.
   */
  async #compactIfNeeded(current: CurrentTurn, allowed: readonly number[], forced: boolean): Promise<boolean> {
    const { compaction, provider } = this.#options;
    if (compaction === 'off') return false;
    const memory = this.#memory;
    if (compaction === 'native' && provider.compact !== undefined) {
      // Native compaction keeps every user message, so it runs at most once per recent_turns turns.
      if (forced ? !memory.hasTurnsBeyond(0) : !memory.needsCompaction(current)) return false;
      const request = { system: memory.system(), entries: memory.history(), tools: this.#tools(allowed) };
      memory.applyNative(await provider.compact(request));
      return true;
    }
    if (forced ? !memory.hasTurnsBeyond() : !memory.needsCompaction(current)) return false;
    const { system, text, fold } = memory.compactionPrompt();
    memory.applySummary(await provider.summarize(system, text), fold);
    return true;
  }

  #tools(allowed: readonly number[]) {
    return this.#options.output === 'tools' ? toolsFor(allowed, this.#options.maxActionsPerTurn) : undefined;
  }

  #read(reply: ModelReply, allowed: readonly number[]): ToolAnswer {
    if (this.#options.output === 'json') return { ...readJsonAnswer(reply.text, allowed), replies: [] };
    if (reply.toolCalls.length === 0) {
      const error =
        reply.refusal === undefined
          ? 'your reply called no tool; call exactly one action tool.'
          : `you declined to play ("${reply.refusal.slice(0, 200)}"); call an action tool.`;
      return { outcome: { error }, replies: [] };
    }
    return readToolCalls(reply.toolCalls, allowed, this.#options.maxActionsPerTurn);
  }

  /**
   * Asks until the reply holds a playable action. Failed attempts are shown to the model within the
   * turn, but only the accepted reply stays in its memory.
   */
  async #choose(current: CurrentTurn, grid: Grid, allowed: readonly number[]): Promise<Extract<Checked, { choice: ModelChoice }>> {
    const history = this.#memory.entries(current);
    const tools = this.#tools(allowed);
    const attempts: Entry[] = [];
    let mistakes = 0;
    let notesOnly = 0;
    for (;;) {
      const entries = [...history, ...attempts];
      const reply = await this.#options.provider.ask({ system: this.#memory.system(), entries, tools });
      const answer = this.#read(reply, allowed);
      if (answer.notes !== undefined) this.#memory.notes = answer.notes;
      const outcome: Checked | undefined =
        answer.outcome ?? (++notesOnly > MAX_NOTES_ONLY_REPLIES ? { error: 'you only wrote notes; call one action tool.' } : undefined);
      if (outcome !== undefined && 'choice' in outcome) {
        // In JSON mode the text is the answer itself, not a rationale.
        const choice = this.#options.output === 'tools' ? withRationale(outcome.choice, reply) : outcome.choice;
        const planned = [choice, ...(outcome.then ?? [])];
        const text = planned.map((c) => `${describeAction(c)}${c.rationale ? `: ${c.rationale}` : ''}`).join('; then ');
        const sent = this.#memory.sentText(current);
        this.#memory.record(
          { text: current.text, sent, frame: current.frame, grid, reply, toolReplies: answer.replies, choice: text },
          entries.length,
          reply.inputTokens,
        );
        return { ...outcome, choice };
      }
      attempts.push({ kind: 'reply', reply });
      if (answer.replies.length > 0) attempts.push({ kind: 'tool_results', results: answer.replies });
      if (outcome === undefined) continue;
      if (++mistakes > 1) {
        const quoted = (reply.text ?? JSON.stringify(reply.toolCalls.map((call) => call.function))).slice(0, 300);
        throw new Error(`model "${this.#options.model}" twice gave no playable action; last problem: ${outcome.error} Its reply: ${quoted}`);
      }
      attempts.push({ kind: 'user', parts: [{ type: 'text', text: `That answer could not be played: ${outcome.error} Try again.` }] });
    }
  }
}
