/**
 * An episode's journal of model calls, beside its checkpoint: one line per call, appended (a write
 * call, no buffer) the moment the runner hears of it. A checkpoint holds the calls made up to its
 * write; a kill between a call's answer and the next write (the agent still deciding, or between two
 * calls of one step) would lose a call the provider has billed, and the resumed agent, restored to
 * before the step, makes it again. The journal's lines past the checkpoint's calls are those: a resume
 * counts them (continueSession.ts), so the run's dollars are what the provider billed.
 *
 * Each line is `{"index": n, "call": …}`, n the call's place among the episode's calls; a line cut
 * short by the kill is left out when read. It goes with its checkpoint.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import type { ModelCallRecord } from '../agent/usage.ts';
import { modelCallSchema } from './runReport.ts';

/** The journal's path from its checkpoint's. */
export function callJournalPath(checkpointPath: string): string {
  return checkpointPath.replace(/\.json$/, '.calls.jsonl');
}

export class CallJournal {
  readonly #path: string;
  #fd: number | undefined;

  constructor(checkpointPath: string) {
    this.#path = callJournalPath(checkpointPath);
  }

  /** Appends call number `index` of the episode; on disk (in the kernel's cache) when this returns. */
  append(index: number, call: ModelCallRecord): void {
    this.#fd ??= openSync(this.#path, 'a');
    writeSync(this.#fd, `${JSON.stringify({ index, call })}\n`);
  }

  remove(): void {
    this.close();
    rmSync(this.#path, { force: true });
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/**
 * The calls the journal beside `checkpointPath` holds from index `settled` on (those its checkpoint
 * does not count), in order; none when there is no journal. A line that is not a whole call is skipped.
 */
export function readUnsettledCalls(checkpointPath: string, settled: number): ModelCallRecord[] {
  const path = callJournalPath(checkpointPath);
  if (!existsSync(path)) return [];
  const byIndex = new Map<number, ModelCallRecord>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const entry = parsedLine(line);
    if (entry !== undefined && entry.index >= settled) byIndex.set(entry.index, entry.call);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
}

function parsedLine(line: string): { index: number; call: ModelCallRecord } | undefined {
  if (line.trim() === '') return undefined;
  try {
    const { index, call } = JSON.parse(line) as { index: unknown; call: unknown };
    const checked = modelCallSchema.safeParse(call);
    return typeof index === 'number' && Number.isInteger(index) && checked.success ? { index, call: checked.data as ModelCallRecord } : undefined;
  } catch {
    return undefined;
  }
}
