/** `arcbench serve --games-dir` (the built CLI) on a free port, with the real arcengine on its PYTHONPATH. */
import { spawn } from 'node:child_process';
import { ARCBENCH_BIN } from './arcbenchProcess.ts';
import { ENGINE_ENV, TOOLKIT_GAMES_DIR } from './toolkitPlays.ts';

/** Its URL, and a way to stop it. */
export async function serveGames(dialect = 'arcbench'): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [ARCBENCH_BIN, 'serve', '--port', '0', '--games-dir', TOOLKIT_GAMES_DIR, '--game-hosts', '2', '--dialect', dialect, '--log-level', 'warn'],
    {
      env: ENGINE_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
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
    child.on('exit', (code) => reject(new Error(`serve ended (${code}): ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
