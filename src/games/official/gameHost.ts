/**
 * One game host: a Python child (python/arcbench_games) stepping official games on the user's arcengine,
 * one JSON request a line on its stdin, one answer a line on its stdout (the game's own prints go to its
 * stderr). Requests are answered in order; each waits on its id. If the child ends, every request in
 * flight and every later one is rejected with why.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../packageFiles.ts';
import { GameEngineMissingError, GameFaultError, GameHostDiedError, GameLoadError, INSTALL_ARCENGINE } from './hostErrors.ts';

export interface GameHostOptions {
  /** The interpreter; default ARCBENCH_PYTHON, else python3. */
  readonly python?: string;
  /** The child's environment (its PYTHONPATH finds the user's arcengine); default this process's. */
  readonly env?: NodeJS.ProcessEnv;
}

type Answer = Record<string, unknown> & { id: number; ok: boolean; kind?: string; message?: string };

const PYTHON_DIR = fileURLToPath(new URL('python/', PACKAGE_ROOT));
const STDERR_KEPT = 2000;

export class GameHost {
  /** Settles once the host said hello: rejects with GameEngineMissingError when it cannot play. */
  readonly ready: Promise<void>;
  /** Set once the child is gone (or failed to start): why. */
  ended: Error | undefined;
  /** Plays open on this host (the pool places new ones on the least busy host). */
  plays = 0;
  /** Whether the host said it can play: only such a host is replaced when it ends. */
  playable = false;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private pendingText = '';
  private stderrTail = '';
  private hello: ((error?: Error) => void) | undefined;
  private kept = true;

  constructor(options: GameHostOptions = {}, onEnd?: (host: GameHost) => void) {
    const env = options.env ?? process.env;
    const python = options.python ?? (env.ARCBENCH_PYTHON || 'python3');
    const pythonPath = [PYTHON_DIR, env.PYTHONPATH].filter(Boolean).join(':');
    this.child = spawn(python, ['-m', 'arcbench_games'], { env: { ...env, PYTHONPATH: pythonPath, PYTHONUNBUFFERED: '1' }, stdio: 'pipe' });
    this.ready = new Promise((resolve, reject) => {
      this.hello = (error) => (error ? reject(error) : resolve());
    });
    this.ready.catch(() => {});
    this.child.stdout.setEncoding('utf8').on('data', (text: string) => this.read(text));
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEPT);
    });
    this.child.on('error', (error) =>
      this.end(
        new GameEngineMissingError(
          `cannot start ${python} for the official games (${error.message}); install python3, or name an interpreter in ARCBENCH_PYTHON`,
        ),
      ),
    );
    this.child.on('close', (code, signal) => {
      this.end(new GameHostDiedError(`the game host (${python}, pid ${this.child.pid}) ended (${signal ?? `exit code ${code}`})${this.lastWords()}`));
      onEnd?.(this);
    });
    // An idle host never keeps arcbench alive (it ends on its own when our end of its stdin closes); one
    // that owes an answer does, or a CLI awaiting only that answer would exit under it.
    this.ready.then(
      () => this.keepAlive(this.waiting.size > 0),
      () => this.keepAlive(false),
    );
  }

  /** Sends one request; the answer's fields, or the error it names (GameLoadError, GameFaultError, GameHostDiedError). */
  async request(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.ready;
    if (this.ended !== undefined) throw this.ended;
    const id = this.nextId++;
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.keepAlive(true);
      this.child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
    });
    if (answer.ok) return answer;
    if (answer.kind === 'load') throw new GameLoadError(String(answer.message));
    throw new GameFaultError(String(answer.message));
  }

  /** Ends the child (its plays' requests are rejected). */
  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }

  private read(text: string): void {
    const lines = (this.pendingText + text).split('\n');
    this.pendingText = lines.pop()!;
    for (const line of lines) if (line.trim() !== '') this.take(JSON.parse(line) as Answer & { hello?: boolean });
  }

  private take(answer: Answer & { hello?: boolean }): void {
    if (answer.hello !== undefined) {
      this.playable = answer.hello;
      this.hello?.(answer.hello ? undefined : new GameEngineMissingError(`${String(answer.message)}; ${INSTALL_ARCENGINE}`));
      return;
    }
    const waiter = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (this.waiting.size === 0) this.keepAlive(false);
    waiter?.resolve(answer);
  }

  private end(error: Error): void {
    if (this.ended !== undefined) return;
    this.ended = error;
    this.hello?.(error);
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  private keepAlive(on: boolean): void {
    if (this.kept === on) return;
    this.kept = on;
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as { ref(): void; unref(): void }[]) {
      if (on) handle.ref();
      else handle.unref();
    }
  }

  private lastWords(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail === '' ? '' : `; it last wrote: ${tail}`;
  }
}
