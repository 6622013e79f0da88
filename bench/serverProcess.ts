/**
 * Our HTTP server in a process of its own, for the suites that load it from outside: the parent's
 * load generator or runner then gets its own core instead of sharing the server's event loop. Run as
 * `node bin/run-ts.js bench/serverProcess.ts`; it prints the URL on its first line and stops on SIGTERM
 * or when its stdin closes (so a crashed parent leaves no server behind).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startServer } from '../src/reference/server/index.ts';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), 'bin/run-ts.js', 'bench/serverProcess.ts', '--serve'],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await once(lines, 'line')) as [string];
  lines.close();
  return {
    url,
    child,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv.includes('--serve') && process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer({ logger: false, port: 0, serviceOptions: { seed: 1 } });
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
  console.log(server.url);
}
