/**
 * The official ARC-AGI-3 games of a folder, ready for a ReferenceService: found, their metadata checked,
 * each class imported and asked for its actions on a host, so that a missing arcengine, a game that does
 * not import or a malformed metadata.json stops a run before anything is played.
 */
import type { GameActionId } from '../../protocol/index.ts';
import type { GameHostOptions } from './gameHost.ts';
import { findOfficialGames } from './gamesFolder.ts';
import { GameHostPool } from './hostPool.ts';
import { OfficialGame, officialGameInfo } from './officialGame.ts';

export { GameEngineMissingError, GameFaultError, GameHostDiedError, GameLoadError } from './hostErrors.ts';
export { GameHostPool } from './hostPool.ts';

export interface OfficialGames {
  readonly games: readonly OfficialGame[];
  readonly pool: GameHostPool;
  close(): void;
}

export interface OfficialGamesOptions extends GameHostOptions {
  /** Hosts in the pool; default the machine's cores. */
  readonly hosts?: number;
}

export async function loadOfficialGames(folder: string, options: OfficialGamesOptions = {}): Promise<OfficialGames> {
  const found = findOfficialGames(folder);
  const pool = new GameHostPool(options, options.hosts);
  try {
    await pool.ready();
    const host = pool.host();
    const games = [];
    for (const files of found) {
      const described = await host.request({ op: 'describe', file: files.gameFile, class: files.className });
      games.push(new OfficialGame(officialGameInfo(files, described.available_actions as GameActionId[]), files, pool));
    }
    return { games, pool, close: () => pool.close() };
  } catch (error) {
    pool.close();
    throw error;
  }
}
