/**
 * Main effects of a factorial design (docs/experiments.md, "Factorial arms"): for each factor and each
 * of its levels after the first, how much the mean score moves from the first level, averaged over the
 * other factors' levels. Arms differ in label, so their episode seeds differ and episodes never pair;
 * the games do: every arm plays the same games, so the effect is taken game by game (the level's arms'
 * mean on the game minus the first level's) and its interval is the cluster bootstrap over games
 * (gameClustered.ts). With one game there is nothing to pair on, and the interval is the bootstrap of
 * the two levels' episodes on it (bootstrap.ts), said as such.
 */
import { differenceOfMeansStratum, type Interval, stratifiedEstimate } from './bootstrap.ts';
import { bootstrapOverGames } from './gameClustered.ts';
import type { ScoredEpisode } from './episodeSample.ts';

export type Level = string | number | boolean;

/** An agent of the run, with its arm when it is one. */
export interface ArmAgent {
  readonly label: string;
  readonly arm?: { readonly of: string; readonly levels: Readonly<Record<string, Level>> } | undefined;
}

export interface LevelEffect {
  readonly level: Level;
  /** The arms at this level. */
  readonly arms: readonly string[];
  /** Mean score of those arms over the games every arm of the design played (mean of game means). */
  readonly mean: number | null;
  /** Change from the first level, in score points; null for the first level itself or without common games. */
  readonly effect: { readonly value: number; readonly interval: Interval | null; readonly games: number; readonly pairing: string } | null;
}

export interface FactorEffect {
  readonly factor: string;
  readonly levels: readonly LevelEffect[];
}

export interface FactorialDesign {
  /** The entry the arms came from (its label). */
  readonly of: string;
  readonly arms: readonly string[];
  readonly factors: readonly FactorEffect[];
  /** Said when some combination of levels has no arm (`--agents` kept a few): its effects then mix in the other factors. */
  readonly note: string | null;
}

export const PAIRED_BY_GAME = 'paired by game (bootstrap over games)';
export const ONE_GAME = 'one game: its episodes, unpaired (bootstrap over episodes)';

/** Every factorial design of the run, with each factor's main effects. */
export function factorialDesigns(agents: readonly ArmAgent[], episodes: readonly ScoredEpisode[]): FactorialDesign[] {
  const designs = new Map<string, ArmAgent[]>();
  for (const agent of agents) {
    if (agent.arm === undefined) continue;
    designs.set(agent.arm.of, [...(designs.get(agent.arm.of) ?? []), agent]);
  }
  return [...designs].map(([of, arms]) => designOf(of, arms, episodes));
}

function designOf(of: string, arms: readonly ArmAgent[], episodes: readonly ScoredEpisode[]): FactorialDesign {
  const labels = new Set(arms.map((a) => a.label));
  const scores = armGameScores(episodes.filter((e) => labels.has(e.agent)));
  // Only games every arm finished an episode of: a game one arm lacks would weigh its levels unevenly.
  const games = [...new Set(episodes.map((e) => e.game))].filter((game) => arms.every((a) => scores.get(a.label)?.has(game))).sort();
  const factors = Object.keys(arms[0]?.arm?.levels ?? {}).map((factor) => factorEffect(factor, arms, scores, games));
  const combinations = factors.reduce((product, factor) => product * factor.levels.length, 1);
  const note =
    arms.length < combinations
      ? `${arms.length} of the ${combinations} combinations of levels were played: each effect is taken over unequal levels of the other factors`
      : null;
  return { of, arms: arms.map((a) => a.label), factors, note };
}

/** Per arm, per game, the episodes' scores. */
function armGameScores(episodes: readonly ScoredEpisode[]): Map<string, Map<string, number[]>> {
  const byArm = new Map<string, Map<string, number[]>>();
  for (const e of episodes) {
    const byGame = byArm.get(e.agent) ?? new Map<string, number[]>();
    byGame.set(e.game, [...(byGame.get(e.game) ?? []), e.score]);
    byArm.set(e.agent, byGame);
  }
  return byArm;
}

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

function factorEffect(factor: string, arms: readonly ArmAgent[], scores: Map<string, Map<string, number[]>>, games: readonly string[]): FactorEffect {
  const levels: Level[] = [];
  for (const arm of arms) {
    const level = arm.arm!.levels[factor]!;
    if (!levels.includes(level)) levels.push(level);
  }
  const armsAt = (level: Level) => arms.filter((a) => a.arm!.levels[factor] === level).map((a) => a.label);
  // A level's value on a game: the mean over its arms of each arm's mean there (every arm weighs the same).
  const onGame = (level: Level, game: string) => mean(armsAt(level).map((label) => mean(scores.get(label)!.get(game)!)));
  const first = levels[0]!;
  return {
    factor,
    levels: levels.map((level) => ({
      level,
      arms: armsAt(level),
      mean: games.length === 0 ? null : mean(games.map((game) => onGame(level, game))),
      effect: level === first || games.length === 0 ? null : effectOf(level, first, games, onGame, (l, g) => armsAt(l).flatMap((a) => scores.get(a)!.get(g)!)),
    })),
  };
}

function effectOf(
  level: Level,
  first: Level,
  games: readonly string[],
  onGame: (level: Level, game: string) => number,
  episodesAt: (level: Level, game: string) => number[],
): LevelEffect['effect'] {
  if (games.length >= 2) {
    const estimate = bootstrapOverGames(games.map((game) => onGame(level, game) - onGame(first, game)));
    return { value: estimate.value, interval: estimate.interval, games: games.length, pairing: PAIRED_BY_GAME };
  }
  const game = games[0]!;
  const estimate = stratifiedEstimate([differenceOfMeansStratum(episodesAt(first, game), episodesAt(level, game))]);
  return { value: estimate.value, interval: estimate.interval, games: 1, pairing: ONE_GAME };
}
