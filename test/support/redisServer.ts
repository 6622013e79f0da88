/**
 * A real redis-server (Debian's package) for the tests of the worker pool: started on a free 127.0.0.1
 * port with nothing written to disk, and stopped by the test's afterAll. `.ci/run` installs the package
 * when it is missing.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const READY_LINE = /Ready to accept connections/;
const START_TIMEOUT_MS = 10_000;

function redisServerPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('redis-server is not installed; run `apt-get install -y redis-server` (.ci/run does it when missing)');
  }
}

/** A port nobody listens on right now (another process may still take it before redis does: start retries). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

function startOn(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (READY_LINE.test(output)) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited with ${code}:\n${output}`));
    });
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerPath();
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    let child: ChildProcess;
    try {
      child = await startOn(binary, port);
    } catch (error) {
      lastError = error;
      continue;
    }
    child.removeAllListeners('exit');
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      },
    };
  }
  throw lastError;
}
