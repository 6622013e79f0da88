/**
 * A server started as a child process that prints its URL as its first line of stdout (`arcbench serve
 * --port 0`, the official toolkit's server): its URL once printed, and a way to stop it and wait for its end.
 */
import { spawn } from 'node:child_process';

export interface ListeningChild {
  readonly url: string;
  stop(): Promise<void>;
}

/** `name` names the server in the error when it ends before printing its URL (with what it wrote on stderr). */
export async function startListeningChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv, name: string): Promise<ListeningChild> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${name} ended (${code}): ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
