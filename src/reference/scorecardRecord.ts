/**
 * A scorecard as the service keeps it: who opened it, its open/closed lifecycle, its sessions, and the
 * runs of each game in order of first play. The wire form (docs/protocol.md §5) is built from it on each read.
 */
import type { Scorecard } from '../protocol/index.ts';
import type { AnyGame as Game } from '../games/types.ts';
import { isoTime } from './clock.ts';
import type { UserIdentity } from './keyring.ts';
import type { RunCounts, RunTracker } from './run.ts';
import { buildEnvironmentEntry, scoreCard, type TaggedEnvironment } from './scoring.ts';
import type { Session } from './session.ts';

export interface ScorecardRecordInit {
  cardId: string;
  owner: string;
  identity: UserIdentity;
  sourceUrl: string | undefined;
  tags: string[];
  /** The opaque value as JSON text, so no caller can mutate what the card echoes. */
  opaqueJson: string | undefined;
  competition: boolean;
  openedAt: number;
}

/** One game's runs on a card, in the order they began. */
export interface GameRunCounts {
  readonly gameId: string;
  readonly runs: readonly RunCounts[];
}

interface GameRuns {
  readonly game: Game;
  readonly runs: RunTracker[];
}

export class ScorecardRecord {
  readonly cardId: string;
  readonly owner: string;
  readonly identity: UserIdentity;
  readonly sourceUrl: string | undefined;
  readonly tags: readonly string[];
  readonly opaqueJson: string | undefined;
  readonly competition: boolean;
  readonly openedAt: number;
  lastUpdateAt: number;
  /** Idle time runs from here: the open, or the last counted action. */
  lastCountedAt: number;
  closedAt: number | undefined;
  readonly sessions = new Set<Session>();
  private readonly gameRuns = new Map<string, GameRuns>();

  constructor(init: ScorecardRecordInit) {
    this.cardId = init.cardId;
    this.owner = init.owner;
    this.identity = init.identity;
    this.sourceUrl = init.sourceUrl;
    this.tags = init.tags;
    this.opaqueJson = init.opaqueJson;
    this.competition = init.competition;
    this.openedAt = init.openedAt;
    this.lastUpdateAt = init.openedAt;
    this.lastCountedAt = init.openedAt;
  }

  get isOpen(): boolean {
    return this.closedAt === undefined;
  }

  /** When the card auto-closes: idle limit after the last counted action, or the maximum lifetime. */
  closesAt(idleCloseMs: number, maxOpenMs: number): number {
    return Math.min(this.lastCountedAt + idleCloseMs, this.openedAt + maxOpenMs);
  }

  /** Whether a session of this game was ever started on the card. */
  hasPlayed(game: Game): boolean {
    return (this.gameRuns.get(game.info.id)?.runs.length ?? 0) > 0;
  }

  addRun(game: Game, run: RunTracker): void {
    this.entryFor(game).runs.push(run);
  }

  /** A game that enters the card without a run (competition close), scoring 0. */
  addUnplayedGame(game: Game): void {
    this.entryFor(game);
  }

  /** The wire scorecard; restricted to one game (totals recomputed) when `only` is given. */
  toScorecard(only?: Game): Scorecard {
    const environments: TaggedEnvironment[] = [];
    for (const { game, runs } of this.gameRuns.values()) {
      if (only !== undefined && game !== only) continue;
      const environment = buildEnvironmentEntry({
        gameId: game.info.id,
        levelCount: game.info.baselineActions.length,
        runs: runs.map((run) => run.toEntry()),
      });
      environments.push({ gameTags: game.info.tags, environment });
    }
    const scored = scoreCard(environments);
    return {
      card_id: this.cardId,
      score: scored.score,
      source_url: this.sourceUrl ?? null,
      tags: [...this.tags],
      ...(this.opaqueJson === undefined ? {} : { opaque: JSON.parse(this.opaqueJson) as unknown }),
      user_name: this.identity.user_name,
      user_id: this.identity.user_id,
      open_at: isoTime(this.openedAt),
      last_update: isoTime(this.lastUpdateAt),
      published_at: this.closedAt === undefined ? null : isoTime(this.closedAt),
      ...(this.competition ? { competition_mode: true } : {}),
      environments: scored.environments,
      tags_scores: scored.tags_scores,
      total_environments_completed: scored.total_environments_completed,
      total_environments: scored.total_environments,
      total_levels_completed: scored.total_levels_completed,
      total_levels: scored.total_levels,
      total_actions: scored.total_actions,
    };
  }

  /** Each game's runs with their plain counters, games in order of first play. */
  runCounts(): GameRunCounts[] {
    return [...this.gameRuns.values()].map(({ game, runs }) => ({ gameId: game.info.id, runs: runs.map((run) => run.counts()) }));
  }

  private entryFor(game: Game): GameRuns {
    let entry = this.gameRuns.get(game.info.id);
    if (entry === undefined) {
      entry = { game, runs: [] };
      this.gameRuns.set(game.info.id, entry);
    }
    return entry;
  }
}
