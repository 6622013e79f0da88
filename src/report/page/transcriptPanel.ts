/**
 * Beside the replay: the model calls that decided the step on screen, from the episode's transcript
 * (src/runfolder/transcriptFile.ts). Collapsed by default; open, each call shows the turn's
 * text, the frame the model saw drawn as a grid (not 4,096 digits), the reply and its tool call, the
 * reasoning summary, tokens and dollars. Compaction calls (older turns summarised) are marked.
 */
import type { EpisodeRow, RecordingSource } from '../pageData.ts';
import { dollars } from './cost.ts';
import { el, replaceChildren } from './dom.ts';
import * as format from './format.ts';
import { GridCanvas } from './gridCanvas.ts';
import { loadRecordingText, type Recording } from './recording.ts';

interface CallUsage {
  kind: 'action' | 'compaction';
  model: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost_usd: number | null;
}

export interface TranscriptCall {
  call: number;
  step: number;
  kind: 'action' | 'compaction';
  model: string;
  messages: unknown[];
  response: { content?: unknown; tool_calls?: unknown[]; reasoning?: unknown };
  usage: CallUsage;
}

/** The transcript's calls with their messages in place (pieces are stored once, named by hash). */
export function parseTranscript(text: string): TranscriptCall[] {
  const pieces = new Map<string, unknown>();
  const calls: TranscriptCall[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as { piece?: string; value?: unknown; messages?: string[] };
    if (typeof entry.piece === 'string') pieces.set(entry.piece, entry.value);
    else calls.push({ ...(entry as unknown as TranscriptCall), messages: (entry.messages ?? []).map((hash) => pieces.get(hash)) });
  }
  return calls;
}

export class TranscriptPanel {
  readonly element = el('details', { class: 'transcript', 'data-testid': 'transcript' });
  private calls: TranscriptCall[] = [];
  private recording: Recording | null = null;

  /** Loads the episode's transcript (nothing to show without one). */
  async load(source: RecordingSource, row: EpisodeRow, recording: Recording): Promise<void> {
    this.calls = [];
    this.recording = recording;
    if (!row.transcript) {
      this.element.hidden = true;
      return;
    }
    try {
      this.calls = parseTranscript(await loadRecordingText(source, row.transcript));
      this.element.hidden = false;
    } catch (error) {
      this.element.hidden = false;
      replaceChildren(this.element, el('summary', {}, 'model calls'), el('p', { class: 'note' }, `Cannot read ${row.transcript}: ${(error as Error).message}`));
    }
  }

  /** The calls that decided the action whose answer is recording step `step` (made in decision step − 1). */
  showStep(step: number): void {
    if (this.element.hidden || this.recording === null) return;
    const calls = this.calls.filter((call) => call.step === step - 1);
    const tokens = calls.reduce((sum, call) => sum + call.usage.input_tokens + call.usage.output_tokens, 0);
    const cost = calls.some((call) => call.usage.cost_usd === null) ? null : calls.reduce((sum, call) => sum + (call.usage.cost_usd ?? 0), 0);
    const summary =
      calls.length === 0
        ? `no model call decided step ${step}`
        : `${calls.length} model call${calls.length === 1 ? '' : 's'} decided step ${step} · ${format.count(tokens)} tokens · ${dollars(cost)}`;
    const seen = this.recording.steps[step - 1]?.grids.at(-1);
    replaceChildren(this.element, el('summary', { 'data-testid': 'transcript-summary' }, summary), ...calls.map((call) => callView(call, seen)));
  }
}

function callView(call: TranscriptCall, seen: Uint8Array | undefined): HTMLElement {
  const { usage } = call;
  const compaction = call.kind === 'compaction';
  const head = `${compaction ? 'compaction · ' : ''}call ${call.call + 1} · ${call.model} · ${format.count(usage.input_tokens)} in (${format.count(usage.cached_input_tokens)} cached) · ${format.count(usage.output_tokens)} out (${format.count(usage.reasoning_tokens)} reasoning) · ${dollars(usage.cost_usd)}`;
  const turn = lastUserText(call.messages);
  const grid = seen !== undefined && !compaction ? new GridCanvas() : undefined;
  grid?.draw(seen!, null);
  grid?.canvas.setAttribute('class', 'transcript-grid');
  return el(
    'details',
    { class: `call${compaction ? ' compaction' : ''}`, 'data-testid': 'transcript-call', 'data-kind': call.kind },
    el('summary', {}, head),
    el('h4', {}, compaction ? 'asked to summarise' : 'the turn'),
    el('pre', { 'data-testid': 'transcript-prompt' }, withoutFrame(turn)),
    grid && el('figure', {}, grid.canvas, el('figcaption', {}, 'the frame as the model saw it')),
    el('h4', {}, 'the reply'),
    el('pre', { 'data-testid': 'transcript-reply' }, replyText(call.response)),
    call.response.reasoning !== undefined && el('h4', {}, 'reasoning summary'),
    call.response.reasoning !== undefined && el('pre', {}, asText(call.response.reasoning)),
  );
}

/** The text of the last user message (its text parts; `input_text` in Responses input items), what this call newly asked. */
function lastUserText(messages: readonly unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: string; content?: unknown } | null;
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      return message.content
        .map((part: { type?: string; text?: string }) => (part.type === 'text' || part.type === 'input_text' ? (part.text ?? '') : `[${part.type ?? 'part'}]`))
        .join('\n');
    }
  }
  return '';
}

/** The turn's words without the grid's rows of hex digits: the frame is drawn instead. */
function withoutFrame(text: string): string {
  const at = text.search(/\n?Frame[^\n]*:\n/);
  return at < 0 ? text : `${text.slice(0, at).trimEnd()}\n[frame: drawn below]`;
}

function replyText(response: TranscriptCall['response']): string {
  const parts: string[] = [];
  if (response.content !== undefined && response.content !== null && response.content !== '') parts.push(asText(response.content));
  for (const call of response.tool_calls ?? []) {
    const fn = (call as { function?: { name?: string; arguments?: string } }).function;
    parts.push(fn ? `tool call ${fn.name}(${fn.arguments ?? ''})` : asText(call));
  }
  return parts.join('\n') || '(empty reply)';
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
