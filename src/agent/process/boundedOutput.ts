/**
 * An agent process's stdout and stderr, line by line, into run.log: the first OUTPUT_LOG_BYTES of an
 * episode whole, then a count of what was left out. Past FLOOD_BYTES within one decision (between two
 * answers) the agent is flooding, a loop printing, say: the episode ends rather than keep a pipe busy
 * with it. Counted per decision, so an agent that logs its long prompts every step is not a flood.
 */
export const OUTPUT_LOG_BYTES = 64 * 1024;
export const FLOOD_BYTES = 8 * 1024 * 1024;
/** Kept for error messages: the end of stderr says why a process died. */
const STDERR_TAIL_BYTES = 2048;

export type OutputLine = (stream: 'stdout' | 'stderr', line: string) => void;

export class BoundedOutput {
  readonly #log: OutputLine;
  readonly #onFlood: () => void;
  #total = 0;
  #sinceAnswer = 0;
  #logged = 0;
  #flooded = false;
  #stderrTail = '';
  readonly #partial = { stdout: '', stderr: '' };

  constructor(log: OutputLine, onFlood: () => void) {
    this.#log = log;
    this.#onFlood = onFlood;
  }

  take(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    this.#total += chunk.length;
    this.#sinceAnswer += chunk.length;
    if (this.#flooded) return;
    if (this.#sinceAnswer > FLOOD_BYTES) {
      this.#flooded = true;
      this.#onFlood();
      return;
    }
    const text = chunk.toString('utf8');
    if (stream === 'stderr') this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_BYTES);
    if (this.#logged >= OUTPUT_LOG_BYTES) return;
    const lines = (this.#partial[stream] + text).split('\n');
    this.#partial[stream] = lines.pop()!;
    for (const line of lines) this.#logLine(stream, line);
  }

  #logLine(stream: 'stdout' | 'stderr', line: string): void {
    if (this.#logged >= OUTPUT_LOG_BYTES) return;
    this.#logged += line.length + 1;
    this.#log(stream, line);
  }

  /** The agent answered: a new decision begins. */
  answered(): void {
    this.#sinceAnswer = 0;
  }

  /** Flushes partial lines and notes what was left out. */
  close(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.#partial[stream] !== '') this.#logLine(stream, this.#partial[stream]);
      this.#partial[stream] = '';
    }
    if (this.#total > this.#logged && this.#logged >= OUTPUT_LOG_BYTES) {
      this.#log('stderr', `(arcbench: ${this.#total - this.#logged} more bytes of this agent's output were left out of run.log)`);
      this.#logged = this.#total;
    }
  }

  /** The last lines of stderr, for a message about why the process ended. */
  stderrTail(lines = 5): string {
    return this.#stderrTail.trimEnd().split('\n').slice(-lines).join('\n');
  }
}
