/** `arcbench serve --games-dir` (the built CLI) on a free port, with the real arcengine on its PYTHONPATH. */
import { ARCBENCH_BIN } from './arcbenchProcess.ts';
import { type ListeningChild, startListeningChild } from './listeningChild.ts';
import { ENGINE_ENV, TOOLKIT_GAMES_DIR } from './toolkitPlays.ts';

/** Its URL, and a way to stop it: over the toolkit's test games unless `gamesDir` names others, with more serve `flags`. */
export async function serveGames(dialect = 'arcbench', options: { gamesDir?: string; flags?: readonly string[] } = {}): Promise<ListeningChild> {
  const gamesDir = options.gamesDir ?? TOOLKIT_GAMES_DIR;
  const args = [
    ARCBENCH_BIN,
    'serve',
    '--port',
    '0',
    '--games-dir',
    gamesDir,
    '--game-hosts',
    '2',
    '--dialect',
    dialect,
    '--log-level',
    'warn',
    ...(options.flags ?? []),
  ];
  return startListeningChild(process.execPath, args, ENGINE_ENV, 'serve');
}
