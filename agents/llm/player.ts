/**
 * One episode of the llm agent: each frame becomes a turn (facts, notes, frame), the model answers
 * with an action, and the action goes back to the runner with the model's one-line rationale as its
 * reasoning. A reply that cannot be played is shown its error and tried once more; a second one ends
 * the episode with an error that quotes it. When the game is over the agent sends the RESET itself:
 * there is nothing else to choose, so no call is paid for it.
 */
import type OpenAI from 'openai';
import { action, click, reset, type AgentAction, type FrameResponse, type GameDescriptor, type Grid, latestGrid } from 'arcbench';
import { type FrameFormat, frameParts } from './frameFormats.ts';
import { type CurrentTurn, Memory } from './memory.ts';
import type { ModelClient, ReplyMessage, RequestBody } from './modelClient.ts';
import { type Checked, jsonInstructions, MAX_RATIONALE_CHARS, type ModelChoice, readJsonAnswer, readToolCalls, type ToolAnswer, toolsFor } from './tools.ts';
import { choosableActions, describeAction, type SentAction, turnText } from './turnText.ts';

type Message = OpenAI.Chat.ChatCompletionMessageParam;

export const DEFAULT_SYSTEM_PROMPT = [
  'You play a turn-based puzzle game on a 64x64 grid of colours 0-15, one action per turn. Nobody tells you the rules:',
  'find them out by acting and watching what changes. Each turn shows the game, the result of your last action and the frame.',
  "ACTION1 to ACTION5 are the game's own keys (often up, down, left, right and an interact key); ACTION6 clicks the cell",
  'at column x and row y (0-63, from the top-left); ACTION7 undoes, in games that offer it; RESET restarts the level.',
  'Completing a level moves you to the next; the game is won when every level is completed. Fewer actions score higher.',
  'Keep what you learn (rules, plans, dead ends) in your notes: they are shown every turn, while older turns are only summarised.',
].join(' ');

/** Replies that only wrote notes, answered "saved" and asked again, before it counts as a mistake. */
const MAX_NOTES_ONLY_REPLIES = 2;

export interface PlayerOptions {
  readonly client: ModelClient;
  readonly game: GameDescriptor;
  readonly model: string;
  readonly frameFormat: FrameFormat;
  readonly output: 'tools' | 'json';
  readonly systemPrompt: string;
  readonly contextTokens: number;
  readonly recentTurns: number;
  /** Sampling fields every request carries (seed, temperature, max_completion_tokens, reasoning_effort). */
  readonly sampling: Partial<RequestBody>;
}

/** The model's reply as the conversation keeps it. */
function assistantMessage(reply: ReplyMessage): OpenAI.Chat.ChatCompletionAssistantMessageParam {
  const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
  return {
    role: 'assistant',
    content: reply.content ?? null,
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        }
      : {}),
  };
}

/** The reply's own text stands in for a rationale the model did not put in its tool call. */
function withRationale(choice: ModelChoice, reply: ReplyMessage): ModelChoice {
  const text = reply.content?.trim();
  return choice.rationale !== undefined || !text ? choice : { ...choice, rationale: text.slice(0, MAX_RATIONALE_CHARS) };
}

export class Player {
  readonly #memory: Memory;
  readonly #options: PlayerOptions;
  #before: { grid: Grid; levelsCompleted: number } | undefined;
  #lastAction: SentAction | undefined;
  #autoReset = false;

  constructor(options: PlayerOptions) {
    this.#options = options;
    this.#memory = new Memory({
      systemPrompt: options.systemPrompt,
      contextTokens: options.contextTokens,
      recentTurns: options.recentTurns,
      wholeFrame: (grid) => frameParts(options.frameFormat === 'diff' ? 'text' : options.frameFormat, grid, undefined),
    });
  }

  async act(frame: FrameResponse, actions: number): Promise<AgentAction> {
    const grid = latestGrid(frame);
    if (frame.state === 'GAME_OVER') {
      this.#remember(frame, grid, { id: 0 }, true);
      return reset('the game was over: restarting the level');
    }
    const allowed = choosableActions(frame);
    const facts = { game: this.#options.game, frame, before: this.#before, lastAction: this.#lastAction, actions, autoReset: this.#autoReset };
    const turn = (): CurrentTurn => ({
      text: turnText(facts),
      frame: frameParts(this.#options.frameFormat, grid, this.#memory.lastGrid()),
      ...(this.#options.output === 'json' ? { instructions: jsonInstructions(allowed) } : {}),
    });
    if (this.#memory.needsCompaction(turn())) await this.#compact();
    const current = turn();
    const choice = await this.#choose(current, grid, allowed);
    this.#remember(frame, grid, choice, false);
    return this.#decision(choice);
  }

  #remember(frame: FrameResponse, grid: Grid, sent: SentAction, autoReset: boolean): void {
    this.#before = { grid, levelsCompleted: frame.levels_completed };
    this.#lastAction = sent;
    this.#autoReset = autoReset;
  }

  #decision(choice: ModelChoice): AgentAction {
    if (choice.id === 0) return reset(choice.rationale);
    if (choice.id === 6) return click(choice.x!, choice.y!, choice.rationale);
    return action(choice.id as 1 | 2 | 3 | 4 | 5 | 7, choice.rationale);
  }

  #body(messages: Message[], allowed: readonly number[]): RequestBody {
    const tools = this.#options.output === 'tools' ? { tools: toolsFor(allowed) } : {};
    return { model: this.#options.model, messages, ...this.#options.sampling, ...tools };
  }

  #read(reply: ReplyMessage, allowed: readonly number[]): ToolAnswer {
    if (this.#options.output === 'json') return { ...readJsonAnswer(reply.content, allowed), replies: [] };
    const calls = (reply.tool_calls ?? []).filter((call) => call.type === 'function');
    if (calls.length === 0) return { outcome: { error: 'your reply called no tool; call exactly one action tool.' }, replies: [] };
    return readToolCalls(calls, allowed);
  }

  /**
   * Asks until the reply holds a playable action. Failed attempts are shown to the model within the
   * turn, but only the accepted reply stays in its memory.
   */
  async #choose(current: CurrentTurn, grid: Grid, allowed: readonly number[]): Promise<ModelChoice> {
    const messages = this.#memory.messages(current);
    const attempts: Message[] = [];
    let mistakes = 0;
    let notesOnly = 0;
    for (;;) {
      const body = this.#body([...messages, ...attempts], allowed);
      const { message: reply, inputTokens } = await this.#options.client.complete(body, 'action');
      const answer = this.#read(reply, allowed);
      if (answer.notes !== undefined) this.#memory.notes = answer.notes;
      const outcome: Checked | undefined =
        answer.outcome ?? (++notesOnly > MAX_NOTES_ONLY_REPLIES ? { error: 'you only wrote notes; call one action tool.' } : undefined);
      const toolReplies = answer.replies.map((r): Message => ({ role: 'tool', tool_call_id: r.id, content: r.content }));
      if (outcome !== undefined && 'choice' in outcome) {
        // In JSON mode the text is the answer itself, not a rationale.
        const choice = this.#options.output === 'tools' ? withRationale(outcome.choice, reply) : outcome.choice;
        const text = `${describeAction(choice)}${choice.rationale ? `: ${choice.rationale}` : ''}`;
        this.#memory.record(
          { text: current.text, frame: current.frame, grid, reply: assistantMessage(reply), toolReplies: answer.replies, choice: text },
          body.messages,
          inputTokens,
        );
        return choice;
      }
      attempts.push(assistantMessage(reply), ...toolReplies);
      if (outcome === undefined) continue;
      if (++mistakes > 1) {
        const quoted = (reply.content ?? JSON.stringify(reply.tool_calls ?? [])).slice(0, 300);
        throw new Error(`model "${this.#options.model}" twice gave no playable action; last problem: ${outcome.error} Its reply: ${quoted}`);
      }
      attempts.push({ role: 'user', content: `That answer could not be played: ${outcome.error} Try again.` });
    }
  }

  async #compact(): Promise<void> {
    const { messages, fold } = this.#memory.compactionMessages();
    const { message } = await this.#options.client.complete({ model: this.#options.model, messages, ...this.#options.sampling }, 'compaction');
    this.#memory.applySummary(message.content ?? '', fold);
  }
}
