/**
 * `--games-dir` and `--game-hosts` of games, serve and play: the official games of a folder loaded on a
 * pool of Python hosts, or one sentence and exit 2 when they cannot be (no arcengine, a game that does
 * not import, a malformed metadata.json), before anything is served or played.
 */
import { resolve } from 'node:path';
import { Option } from 'commander';
import { isArcbenchError } from '../errors.ts';
import { loadOfficialGames, type OfficialGames } from '../games/official/index.ts';
import { EXIT_USAGE, integerOption } from './commandSupport.ts';

export interface GamesDirOptions {
  gamesDir?: string;
  gameHosts?: number;
}

export function gamesDirOption(): Option {
  return new Option(
    '--games-dir <dir>',
    "a folder of official ARC-AGI-3 games (Kaggle's environment_files/, or the toolkit's flat folders): offered instead of arcbench's own; needs python3 with arcengine",
  );
}

export function gameHostsOption(): Option {
  return new Option('--game-hosts <n>', 'Python processes stepping the official games (default: one per core)').argParser(
    integerOption('--game-hosts', 1, 256),
  );
}

/** The folder's games, or undefined without --games-dir; exits 2 with the reason when they cannot be played. */
export async function loadGamesDirOrExit(command: string, options: GamesDirOptions): Promise<OfficialGames | undefined> {
  if (options.gamesDir === undefined) return undefined;
  try {
    return await loadOfficialGames(resolve(options.gamesDir), options.gameHosts === undefined ? {} : { hosts: options.gameHosts });
  } catch (error) {
    if (!isArcbenchError(error)) throw error;
    process.stderr.write(`arcbench ${command}: ${error.message}\n`);
    process.exit(EXIT_USAGE);
  }
}
