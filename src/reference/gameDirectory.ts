/**
 * The games a service offers, looked up by full id or bare slug (the slug names the current version),
 * and their descriptors of docs/protocol.md §2.
 */
import { DEFAULT_FPS, type GameDescriptor } from '../protocol/index.ts';
import { downloadDateInstant } from '../games/downloadDate.ts';
import type { AnyGame as Game } from '../games/types.ts';

/** Our own games carry no download date; a fixed one keeps descriptors stable across restarts. */
export const REFERENCE_DATE_DOWNLOADED = '2025-01-01T00:00:00.000Z';

export class GameDirectory {
  /** In the order of the descriptors: by title, then id. */
  readonly games: readonly Game[];
  /** In the order the service was given them (an official games folder's: the toolkit's own order). */
  readonly offered: readonly Game[];
  private readonly byId = new Map<string, Game>();
  private readonly bySlug = new Map<string, Game>();

  constructor(games: readonly Game[]) {
    this.offered = [...games];
    this.games = [...games].sort((a, b) => compare(a.info.title, b.info.title) || compare(a.info.id, b.info.id));
    for (const game of games) {
      if (this.byId.has(game.info.id)) throw new Error(`two games share the id ${game.info.id}; each game needs its own id`);
      this.byId.set(game.info.id, game);
      // The last game given for a slug is its current version.
      this.bySlug.set(game.info.slug, game);
    }
  }

  /** The game named by a full id or a bare slug, or undefined. */
  find(gameId: string): Game | undefined {
    return this.byId.get(gameId) ?? this.bySlug.get(gameId);
  }

  /** Descriptors of every game, sorted by title. */
  descriptors(): GameDescriptor[] {
    return this.games.map(describeGame);
  }
}

/** The descriptor of docs/protocol.md §2 of one game. */
export function describeGame(game: Game): GameDescriptor {
  const info = game.info;
  return {
    game_id: info.id,
    title: info.title,
    default_fps: info.defaultFps ?? DEFAULT_FPS,
    tags: [...info.tags],
    baseline_actions: [...info.baselineActions],
    // An official game's is its metadata's: a fact about its files, in our times' form.
    date_downloaded: info.metadata ? downloadDateInstant(info.metadata.dateDownloaded) : REFERENCE_DATE_DOWNLOADED,
    class_name: info.slug.charAt(0).toUpperCase() + info.slug.slice(1),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
