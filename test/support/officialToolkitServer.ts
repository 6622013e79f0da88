/**
 * The official toolkit's own REST server (test/support/officialToolkitServer.py: arc_agi's create_app over the
 * toolkit's test games, unchanged) on a free port of 127.0.0.1: what `--dialect toolkit` must answer as.
 */
import { join } from 'node:path';
import { type ListeningChild, startListeningChild } from './listeningChild.ts';
import { REAL_ARCENGINE, REAL_TOOLKIT } from './officialCode.ts';
import { TOOLKIT_GAMES_DIR } from './toolkitPlays.ts';

export type OfficialToolkitServer = ListeningChild;

/** `competition`: the server in competition mode, as Kaggle's gateway runs it; `gamesDir`: other games than the toolkit's test games. */
export async function startOfficialToolkitServer(options: { competition?: boolean; gamesDir?: string } = {}): Promise<OfficialToolkitServer> {
  const args = [
    join(import.meta.dirname, 'officialToolkitServer.py'),
    options.gamesDir ?? TOOLKIT_GAMES_DIR,
    ...(options.competition ? ['--competition'] : []),
  ];
  return startListeningChild('python3', args, { ...process.env, PYTHONPATH: `${REAL_ARCENGINE}:${REAL_TOOLKIT}` }, 'the official toolkit server');
}
