/** `arcbench serve --games-dir` (the built CLI) on a free port, with the real arcengine on its PYTHONPATH. */
import { ARCBENCH_BIN } from './arcbenchProcess.ts';
import { type ListeningChild, startListeningChild } from './listeningChild.ts';
import { ENGINE_ENV, TOOLKIT_GAMES_DIR } from './toolkitPlays.ts';

/** Its URL, and a way to stop it; the toolkit's test games unless `gamesDir` names others. */
export async function serveGames(dialect = 'arcbench', gamesDir = TOOLKIT_GAMES_DIR): Promise<ListeningChild> {
  const args = [ARCBENCH_BIN, 'serve', '--port', '0', '--games-dir', gamesDir, '--game-hosts', '2', '--dialect', dialect, '--log-level', 'warn'];
  return startListeningChild(process.execPath, args, ENGINE_ENV, 'serve');
}
