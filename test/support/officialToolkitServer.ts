/**
 * The official toolkit's own REST server (test/support/officialToolkitServer.py: arc_agi's create_app over the
 * toolkit's test games, unchanged) on a free port of 127.0.0.1: what `--dialect toolkit` must answer as.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REAL_ARCENGINE, REAL_TOOLKIT } from './officialCode.ts';
import { TOOLKIT_GAMES_DIR } from './toolkitPlays.ts';

export interface OfficialToolkitServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** `competition`: the server in competition mode, as Kaggle's gateway runs it. */
export async function startOfficialToolkitServer(options: { competition?: boolean } = {}): Promise<OfficialToolkitServer> {
  const args = [join(import.meta.dirname, 'officialToolkitServer.py'), TOOLKIT_GAMES_DIR, ...(options.competition ? ['--competition'] : [])];
  const child = spawn('python3', args, {
    env: { ...process.env, PYTHONPATH: `${REAL_ARCENGINE}:${REAL_TOOLKIT}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    child.on('exit', (code) => reject(new Error(`the official toolkit server ended (${code}): ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
