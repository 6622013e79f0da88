/**
 * A Python agent's fork server (python/arcbench_agent/forkserver.py, docs/agent-protocol.md §8): one
 * process per agent definition that imports the agent's module once and forks a fresh child for each
 * episode, so an episode starts in milliseconds however much the module imports. A child connects to
 * a unix socket of ours three times (requests and answers, stdout, stderr) and is then spoken to as any
 * agent process. Each child leads its own process group (processGroups.ts); the server goes once it
 * has been idle a moment, or with arcbench, and its children with it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentCommand, type AgentEndpoints, AgentProcess, spawnedAgent } from './agentProcess.ts';
import type { OutputLine } from './boundedOutput.ts';
import { forgetGroup, killGroup, trackGroup } from './processGroups.ts';
import { helloLine } from './protocolMessages.ts';

/** A server with no child this long goes; the next episode starts another. */
const IDLE_MS = 1000;
const STREAMS = ['answers', 'stdout', 'stderr'] as const;
type StreamKind = (typeof STREAMS)[number];

type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

interface PendingFork {
  readonly sockets: Partial<Record<StreamKind, Socket>>;
  pid?: number;
  resolve(endpoints: AgentEndpoints): void;
  reject(error: Error): void;
}

export class ForkServer {
  /** Undefined once the server forks; else why it will not (episodes then start a process each). */
  readonly ready: Promise<string | undefined>;
  /** Settles once the server's process has exited and its streams are closed. */
  readonly exited: Promise<void>;
  #closed = false;
  readonly #endpoints: AgentEndpoints;
  readonly #dir = mkdtempSync(join(tmpdir(), 'arcbench-fork-'));
  readonly #socketPath = join(this.#dir, 's');
  readonly #sockets: Server;
  readonly #forks = new Map<string, PendingFork>();
  readonly #order: string[] = [];
  readonly #exits = new Map<number, ExitListener>();
  #idle: NodeJS.Timeout | undefined;
  #onClose: () => void;

  /** `logLine` takes what the server prints (its module's import: a note of which Agent stands in, say). */
  constructor(command: AgentCommand, onClose: () => void, logLine: OutputLine) {
    this.#onClose = onClose;
    const [host, ...rest] = command.args;
    // The server removes the socket's folder as it exits, also when arcbench was killed and cannot.
    const env = { ...command.env, ARCBENCH_FORK_DIR: this.#dir };
    this.#endpoints = spawnedAgent({ ...command, env, args: [host!, '--fork-server', ...rest] });
    this.exited = this.#endpoints.closed;
    trackGroup(this.#endpoints.pid);
    this.#sockets = createServer({ allowHalfOpen: true }, (socket) => this.#adopt(socket)).listen(this.#socketPath);
    this.#sockets.unref();
    logLines(this.#endpoints.stdout, (line) => logLine('stdout', line));
    logLines(this.#endpoints.stderr, (line) => logLine('stderr', line));
    this.ready = new Promise((resolve) => {
      this.#endpoints.onStartError((sentence) => resolve(`the fork server ${sentence}`));
      this.#endpoints.onExit(() => {
        resolve('the fork server exited before it answered');
        this.#gone();
      });
      this.#readAnswers(resolve);
    });
    this.#endpoints.stdin.write(helloLine());
  }

  /** A fresh child for one episode, its streams connected. */
  fork(): Promise<AgentEndpoints> {
    clearTimeout(this.#idle);
    const token = randomUUID();
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error('the fork server is gone'));
      this.#forks.set(token, { sockets: {}, resolve, reject });
      this.#order.push(token);
      this.#endpoints.stdin.write(`${JSON.stringify({ type: 'fork', socket: this.#socketPath, token })}\n`);
    });
  }

  #readAnswers(hello: (why: string | undefined) => void): void {
    let partial = '';
    this.#endpoints.answers.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.trim() !== '') this.#answer(JSON.parse(line) as Record<string, unknown>, hello);
    });
  }

  #answer(answer: Record<string, unknown>, hello: (why: string | undefined) => void): void {
    if (answer.type === 'hello') hello(answer.fork === true ? undefined : String(answer.why ?? 'the fork server does not fork'));
    else if (answer.type === 'error') hello(`the fork server failed: ${String(answer.message)}`);
    else if (answer.type === 'forked') {
      const token = this.#order.shift()!;
      const fork = this.#forks.get(token)!;
      fork.pid = answer.pid as number;
      trackGroup(fork.pid);
      this.#complete(token);
    } else if (answer.type === 'exited') {
      const pid = answer.pid as number;
      forgetGroup(pid);
      this.#exits.get(pid)?.((answer.code as number | undefined) ?? null, (answer.signal as NodeJS.Signals | undefined) ?? null);
      this.#exits.delete(pid);
      this.#idleCheck();
    }
  }

  /** A child's connection: its first line says whose and which stream it is. */
  #adopt(socket: Socket): void {
    socket.on('error', () => undefined); // a reset when the child dies: its exit says why
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(10);
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      if (end + 1 < head.length) socket.unshift(head.subarray(end + 1));
      const [token, kind] = head.subarray(0, end).toString('ascii').split(' ') as [string, StreamKind];
      const fork = this.#forks.get(token);
      if (fork === undefined || !STREAMS.includes(kind)) return void socket.destroy();
      fork.sockets[kind] = socket;
      this.#complete(token);
    };
    socket.on('data', onData);
  }

  #complete(token: string): void {
    const fork = this.#forks.get(token)!;
    const { answers, stdout, stderr } = fork.sockets;
    if (fork.pid === undefined || answers === undefined || stdout === undefined || stderr === undefined) return;
    this.#forks.delete(token);
    const pid = fork.pid;
    const exited = new Promise<void>((resolve) => this.#exits.set(pid, () => resolve()));
    const streamsClosed = [answers, stdout, stderr].map((socket) => {
      // The child gone (exited, or killed after a failure, when nobody ends our side): the socket closes.
      socket.once('end', () => socket.end());
      return new Promise<void>((resolve) => socket.once('close', () => resolve()));
    });
    fork.resolve({
      pid,
      stdin: answers,
      stdout,
      stderr,
      answers,
      onExit: (listener) => {
        const done = this.#exits.get(pid);
        this.#exits.set(pid, (code, signal) => {
          done?.(code, signal);
          listener(code, signal);
        });
      },
      onStartError: () => undefined,
      closed: Promise.all([exited, ...streamsClosed]).then(() => undefined),
    });
  }

  #idleCheck(): void {
    if (this.#exits.size > 0 || this.#forks.size > 0 || this.#closed) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), IDLE_MS);
    this.#idle.unref();
  }

  /** Ends the server; children still playing go with it. Resolves once it has exited. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      clearTimeout(this.#idle);
      this.#onClose();
      this.#endpoints.stdin.end();
      const kill = setTimeout(() => killGroup(this.#endpoints.pid), 500);
      kill.unref();
      void this.#endpoints.closed.then(() => clearTimeout(kill));
    }
    return this.#endpoints.closed;
  }

  #gone(): void {
    void this.close();
    forgetGroup(this.#endpoints.pid);
    this.#sockets.close();
    rmSync(this.#dir, { recursive: true, force: true });
    for (const fork of this.#forks.values()) fork.reject(new Error('the fork server exited'));
    this.#forks.clear();
    // Its children were killed with it: each episode's process ends as killed.
    for (const listener of this.#exits.values()) listener(null, 'SIGKILL');
    this.#exits.clear();
  }
}

/** Each whole line of a stream, as it comes (a server prints little: its module's import). */
function logLines(stream: NodeJS.ReadableStream, take: (line: string) => void): void {
  let partial = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) take(line);
  });
  stream.on('end', () => partial !== '' && take(partial));
}

/** The fork server of one agent definition, started at its first episode and again after it went idle. */
export class ForkServers {
  #server: ForkServer | undefined;
  /** Every server not yet exited, the one closing after its idle time included. */
  readonly #live = new Set<ForkServer>();
  /** Why this agent's episodes start a process each (said once), when its server will not fork. */
  #unforkable: string | undefined;

  /** A forked child for one episode, or undefined: start a process for it (and `warn` says why, once). */
  async child(command: AgentCommand, logLine: OutputLine, warn: (sentence: string) => void): Promise<AgentProcess | undefined> {
    // On unless ARCBENCH_FORK=0: the runner closes the server when its run ends (close()).
    if ((command.env?.ARCBENCH_FORK ?? process.env.ARCBENCH_FORK) === '0' || this.#unforkable !== undefined) return undefined;
    if (this.#server === undefined) {
      const made: ForkServer = new ForkServer(
        command,
        () => {
          if (this.#server === made) this.#server = undefined;
        },
        logLine,
      );
      this.#server = made;
      this.#live.add(made);
      void made.exited.then(() => this.#live.delete(made));
    }
    const server = this.#server;
    const why = await server.ready;
    if (why !== undefined) {
      this.#unforkable = why;
      void server.close();
      warn(`agent process ${command.describe}: each episode starts a process of its own (slower): ${why}`);
      return undefined;
    }
    try {
      return new AgentProcess({ endpoints: await server.fork(), describe: command.describe }, logLine);
    } catch {
      return undefined; // the server went meanwhile: a process of its own plays the episode
    }
  }

  /** Ends the server, if one runs, and resolves once it is gone; a later episode starts another. */
  async close(): Promise<void> {
    await Promise.all([...this.#live].map((server) => server.close()));
  }
}
