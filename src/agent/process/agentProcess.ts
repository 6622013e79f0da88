/**
 * One agent child process and the protocol's transport: requests to its stdin, answers read from its
 * private answer channel (fd 3), its stdout and stderr bounded into the log. Whatever goes wrong (an
 * exit, garbage, a flood) becomes one AgentProcessError that names it; the next request fails with it.
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ArcbenchError } from '../../errors.ts';
import { BoundedOutput, FLOOD_BYTES, type OutputLine } from './boundedOutput.ts';
import { forgetGroup, killGroup, trackGroup } from './processGroups.ts';
import { AGENT_PROTOCOL, ANSWER_FD, type AgentAnswer, InvalidAnswer, MAX_LINE_BYTES, parseAnswer } from './protocolMessages.ts';

/**
 * An agent process failed. Its `stack` is what the agent's author needs: the agent's own traceback when
 * it sent one, else the message alone (arcbench's stack says nothing about their code).
 */
export class AgentProcessError extends ArcbenchError {
  constructor(message: string, traceback?: string) {
    super('AGENT_PROCESS_FAILED', message);
    this.stack = traceback ?? `${this.name}: ${message}`;
  }
}

/** How to start an agent: the program, its arguments, and a name for messages ("./my_agent.py"). */
export interface AgentCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly describe: string;
  /** What to do when the program is not found (a sentence), e.g. how to choose the interpreter. */
  readonly notFound?: string;
}

/** Time a stopped agent gets to exit by itself before its process group is killed. */
export const STOP_GRACE_MS = 500;

/**
 * An agent's running process as AgentProcess talks to it: started here (spawnedAgent), or forked for it
 * by a fork server (forkServer.ts), whose streams are sockets.
 */
export interface AgentEndpoints {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly answers: Readable;
  /** Calls back once with how it ended; `undefined` code and signal with a sentence: it never started. */
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  onStartError(listener: (sentence: string) => void): void;
  /** Settles once it has exited and its streams are closed. */
  readonly closed: Promise<void>;
}

/** Starts `command` as the leader of its own process group. */
export function spawnedAgent(command: AgentCommand): AgentEndpoints {
  const child = spawn(command.command, command.args, {
    cwd: command.cwd,
    env: { ...process.env, ...command.env, ARCBENCH_PROTOCOL: AGENT_PROTOCOL, ARCBENCH_ANSWER_FD: String(ANSWER_FD) },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C reaches arcbench only, and a kill reaches all the agent started.
    detached: true,
  });
  return {
    pid: child.pid ?? -1,
    stdin: child.stdin!,
    stdout: child.stdout!,
    stderr: child.stderr!,
    answers: child.stdio[ANSWER_FD] as Readable,
    onExit: (listener) => child.once('exit', listener),
    onStartError: (listener) =>
      child.on('error', (error: NodeJS.ErrnoException) => {
        const hint = error.code === 'ENOENT' && command.notFound !== undefined ? `; ${command.notFound}` : '';
        listener(`could not be started: ${error.message}${hint}`);
      }),
    closed: new Promise((resolve) => child.once('close', () => resolve())),
  };
}

export class AgentProcess {
  readonly #child: AgentEndpoints;
  readonly #pid: number;
  readonly #describe: string;
  readonly #output: BoundedOutput;
  #waiting: { resolve: (answer: AgentAnswer) => void; reject: (error: Error) => void } | undefined;
  #failure: AgentProcessError | undefined;
  #partial = '';
  #maxLine = MAX_LINE_BYTES;
  #closing = false;
  #exited = false;
  readonly #exitedPromise: Promise<void>;

  /** `command` is started; or `endpoints` are a process started for it (`describe` names it). */
  constructor(command: AgentCommand | { endpoints: AgentEndpoints; describe: string }, logLine: OutputLine) {
    this.#describe = command.describe;
    this.#output = new BoundedOutput(logLine, () =>
      this.#fail(`flooded its output (more than ${FLOOD_BYTES / 1024 / 1024} MiB on stdout and stderr while deciding one step)`),
    );
    this.#child = 'endpoints' in command ? command.endpoints : spawnedAgent(command);
    this.#pid = this.#child.pid;
    if (this.#pid > 0) trackGroup(this.#pid);
    this.#exitedPromise = this.#child.closed;
    this.#wire();
  }

  #wire(): void {
    const child = this.#child;
    child.onStartError((sentence) => this.#fail(sentence));
    child.stdin.on('error', () => undefined); // EPIPE once it has exited: the exit says why.
    child.stdout.on('data', (chunk: Buffer) => this.#output.take('stdout', chunk));
    child.stderr.on('data', (chunk: Buffer) => this.#output.take('stderr', chunk));
    child.answers.on('data', (chunk: Buffer) => this.#takeAnswers(chunk));
    child.answers.on('error', () => undefined);
    // A fork server's sockets wait paused for these listeners (forkServer.ts).
    for (const stream of [child.stdout, child.stderr, child.answers]) stream.resume();
    child.onExit((code, signal) => {
      this.#exited = true;
      forgetGroup(this.#pid);
      // Answers written just before the exit may still be in the pipe: read them first.
      setTimeout(() => this.#fail(exitSentence(code, signal)), 50);
    });
  }

  #takeAnswers(chunk: Buffer): void {
    const lines = (this.#partial + chunk.toString('utf8')).split('\n');
    this.#partial = lines.pop()!;
    if (this.#partial.length > this.#maxLine) this.#fail(`wrote an answer line longer than ${this.#maxLine} bytes`);
    for (const line of lines) {
      if (line.trim() === '') continue;
      this.#output.answered();
      const answer = parseAnswer(line);
      if (answer instanceof InvalidAnswer) {
        this.#fail(answer.why);
        return;
      }
      if (this.#waiting === undefined) {
        // Every answer follows its request (requests are written before anything waits): one here is a second answer.
        if (!this.#closing) this.#fail(`answered when nothing was asked: ${line.slice(0, 200)}`);
        return;
      } else {
        const { resolve } = this.#waiting;
        this.#waiting = undefined;
        resolve(answer);
      }
    }
  }

  /** Ends the conversation with an error naming what happened (the first reason wins); kills the process. */
  #fail(what: string): void {
    if (this.#failure !== undefined) return;
    const tail = this.#output.stderrTail();
    this.#failure = new AgentProcessError(`agent process ${this.#describe} ${what}${tail === '' ? '' : `; its stderr ended with:\n${tail}`}`);
    if (!this.#exited) killGroup(this.#pid);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (!this.#closing) waiting?.reject(this.#failure);
  }

  /** Writes one request line and resolves with the answer it gets, a line of at most `maxLine` bytes. */
  request(line: string | Uint8Array, maxLine = MAX_LINE_BYTES): Promise<AgentAnswer> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    this.#maxLine = maxLine;
    this.#child.stdin.write(line);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  /** Whether the agent has a request it has not answered. */
  get deciding(): boolean {
    return this.#waiting !== undefined;
  }

  /**
   * Ends the process: `last` (an `end` or `stop` line) is written, stdin closed, and the process group
   * killed if it has not exited within `graceMs`. Resolves once it is gone.
   */
  async close(last: string | undefined, graceMs: number): Promise<void> {
    if (this.#closing) return this.#exitedPromise;
    this.#closing = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(new AgentProcessError(`agent process ${this.#describe} was stopped before it answered`));
    if (!this.#exited && this.#failure === undefined) {
      if (last !== undefined) this.#child.stdin.write(last);
      this.#child.stdin.end();
    }
    const timer = setTimeout(() => killGroup(this.#pid), graceMs);
    await this.#exitedPromise;
    clearTimeout(timer);
    // Anything the agent started and left behind goes with its group.
    killGroup(this.#pid);
    this.#output.close();
  }
}

function exitSentence(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${code}`;
}
