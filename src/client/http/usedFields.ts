/**
 * The fields of a service's answers that arcbench uses, and why. Answers are read tolerantly (a field it
 * can do without may be missing, docs/protocol.md §7a); when one of these is missing, the transport warns once per
 * run, naming the field and what goes without it, and lists it in its stats.
 */
import type { GameDescriptor, ScorecardAnswer } from '../../protocol/index.ts';

const FOR_SCORE_CHECK = "to compare the run's local score with the service's (that comparison skips it)";

/** Path of a used field, to why it is used. */
export const USED_FIELDS: Readonly<Record<string, string>> = {
  'game.baseline_actions': "for level counts, per-level budgets and local scores (read from the scorecard after each game's first RESET instead)",
  'game.tags': 'for the scores per input kind (taken as none)',
  'scorecard.score': FOR_SCORE_CHECK,
  'scorecard.environments': FOR_SCORE_CHECK,
  'scorecard.total_actions': FOR_SCORE_CHECK,
  'scorecard.total_levels_completed': FOR_SCORE_CHECK,
  'scorecard.total_levels': FOR_SCORE_CHECK,
  'scorecard.total_environments': FOR_SCORE_CHECK,
  'scorecard.total_environments_completed': FOR_SCORE_CHECK,
  'scorecard.environments[].score': FOR_SCORE_CHECK,
  'scorecard.environments[].actions': FOR_SCORE_CHECK,
  'scorecard.environments[].levels_completed': FOR_SCORE_CHECK,
  'scorecard.environments[].runs': 'for the baselines of games whose descriptor has none',
  'scorecard.environments[].runs[].level_baseline_actions': 'for the baselines of games whose descriptor has none',
};

const CARD_FIELDS = [
  'score',
  'environments',
  'total_actions',
  'total_levels_completed',
  'total_levels',
  'total_environments',
  'total_environments_completed',
] as const;
const ENVIRONMENT_FIELDS = ['score', 'actions', 'levels_completed', 'runs'] as const;

export function missingScorecardFields(card: ScorecardAnswer): string[] {
  const missing = new Set<string>();
  for (const field of CARD_FIELDS) if (card[field] == null) missing.add(`scorecard.${field}`);
  for (const environment of card.environments ?? []) {
    for (const field of ENVIRONMENT_FIELDS) if (environment[field] == null) missing.add(`scorecard.environments[].${field}`);
    for (const run of environment.runs ?? []) if (run.level_baseline_actions == null) missing.add('scorecard.environments[].runs[].level_baseline_actions');
  }
  return [...missing];
}

export function missingDescriptorFields(games: readonly GameDescriptor[]): string[] {
  const missing = new Set<string>();
  for (const game of games) {
    if (game.baseline_actions == null) missing.add('game.baseline_actions');
    if (game.tags == null) missing.add('game.tags');
  }
  return [...missing];
}
