/**
 * `arcbench export --format messages`: each episode's model conversation as one chat-format record
 * (JSONL), for fine-tuning and for other viewers. The conversation is what the episode's last action
 * call sent (its system prompt, the turns the model still had in view, a summary where older turns
 * were compacted) followed by the model's reply, with the tools it was offered. The tools are always in
 * the Chat Completions shape (`{type: 'function', function: {name, description, parameters}}`), whichever
 * API the run called, so one file holds one schema a fine-tuning job can read.
 */
import type { RunFolder } from '../../runfolder/readRunFolder.ts';
import { episodeTranscript } from '../../runfolder/episodeFiles.ts';
import type { TranscriptCall } from '../../runfolder/transcriptFile.ts';
import type { CardFacts } from '../../runfolder/harnessCard.ts';

export interface ConversationRecord {
  agent: string;
  game_id: string;
  episode: number;
  model: string;
  messages: unknown[];
  tools?: unknown[];
  /** The agent's facts on the run's harness card (state mode, frame format, …): what shaped this conversation; null without a card. */
  harness: CardFacts | null;
}

export async function conversations(folder: RunFolder): Promise<ConversationRecord[]> {
  const records: ConversationRecord[] = [];
  for (const episode of folder.episodes) {
    const calls = (await episodeTranscript(folder.dir, episode))?.filter((call) => call.kind === 'action') ?? [];
    const last = calls.at(-1);
    if (last === undefined) continue;
    records.push({
      agent: episode.agent,
      game_id: episode.game_id,
      episode: episode.episode,
      model: last.model,
      messages: [...instructionsOf(last), ...conversationOf(last, calls), replyMessage(last)],
      ...(last.tools === null ? {} : { tools: last.tools.map(chatToolOf) }),
      harness: folder.report.harness_card?.agents.find((agent) => agent.label === episode.agent)?.facts ?? null,
    });
  }
  return records;
}

/**
 * Why a run has no conversation to export, as a sentence that says what to change: transcripts were
 * off, its agents' calls were counted but never kept (a Python agent calling its SDK on its own), or
 * no agent called a model.
 */
export function noConversations(folder: RunFolder): string {
  const where = `${folder.dir} has no model-call transcripts, so there is no conversation to export`;
  if ((folder.report.config as { transcripts?: unknown } | undefined)?.transcripts === false) return `${where}: its config says transcripts: false`;
  const counted = folder.episodes.filter((episode) => episode.usage.calls > 0).length;
  if (counted === 0) return `${where}: none of its ${folder.episodes.length} episodes reported a model call`;
  return (
    `${where}: ${counted} episode(s) reported model calls without their transcripts; ` +
    "give a Python agent's entry model_gateway: (its SDK calls are then kept), or have the agent keep them (keepTranscript, or transcripts in its protocol answers)"
  );
}

/** Instructions sent apart from the messages (Responses, Anthropic) become the system message. */
function instructionsOf(call: TranscriptCall): unknown[] {
  return call.instructions === null || call.instructions === undefined ? [] : [{ role: 'system', content: call.instructions }];
}

/**
 * The messages a call had in view. A Responses call with `state: provider` sent only what was new
 * since the response it names (previous_response_id): what came before is that response's call, its
 * reply, and so on back to the start of the chain.
 */
function conversationOf(call: TranscriptCall, calls: readonly TranscriptCall[]): unknown[] {
  const chain: TranscriptCall[] = [call];
  for (let previous = call.params.previous_response_id; typeof previous === 'string'; ) {
    const named = previous;
    const before = calls.find((earlier) => earlier.response.id === named);
    if (before === undefined || chain.includes(before)) break;
    chain.unshift(before);
    previous = before.params.previous_response_id;
  }
  return chain.flatMap((link, index) => [...link.messages.map(chatMessageOf), ...(index < chain.length - 1 ? [replyMessage(link)] : [])]);
}

/**
 * A Responses input item as a chat message (a message's input_text parts become text parts, a
 * function call an assistant tool call, its output a tool message); a reasoning or compaction item,
 * which no chat format holds, is kept as it is. Chat and Anthropic messages pass unchanged.
 */
function chatMessageOf(item: unknown): unknown {
  const it = item as { type?: string; role?: string; content?: unknown; call_id?: string; name?: string; arguments?: string; output?: unknown };
  if (it.type === 'function_call')
    return { role: 'assistant', content: null, tool_calls: [{ id: it.call_id, type: 'function', function: { name: it.name, arguments: it.arguments } }] };
  if (it.type === 'function_call_output') return { role: 'tool', tool_call_id: it.call_id, content: it.output };
  if (it.type !== 'message' || !Array.isArray(it.content)) return item;
  const parts = (it.content as Array<{ type?: string; text?: string }>).map((part) =>
    part.type === 'input_text' || part.type === 'output_text' ? { type: 'text', text: part.text } : part,
  );
  return { role: it.role, content: parts };
}

/**
 * A tool as offered to any of the three APIs, in the Chat Completions shape: Responses puts name,
 * description and parameters at the top (with `strict`), Anthropic calls the parameters `input_schema`.
 */
function chatToolOf(tool: unknown): unknown {
  const it = tool as { type?: string; function?: unknown; name?: string; description?: string; parameters?: unknown; input_schema?: unknown };
  if (it.function !== undefined || typeof it.name !== 'string') return tool;
  const parameters = it.parameters ?? it.input_schema;
  return {
    type: 'function',
    function: { name: it.name, ...(it.description === undefined ? {} : { description: it.description }), ...(parameters === undefined ? {} : { parameters }) },
  };
}

function replyMessage(call: TranscriptCall): Record<string, unknown> {
  const { content, tool_calls } = call.response as { content?: unknown; tool_calls?: unknown[] };
  return { role: 'assistant', content: content ?? null, ...(tool_calls === undefined ? {} : { tool_calls }) };
}
