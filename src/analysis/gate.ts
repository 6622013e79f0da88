/**
 * The regression gate over a comparison, and the comparison as one JSON document (for `--json`,
 * comparison.json in a run folder, and anything else that reads it).
 */
import type { ComparisonRow, RunComparison } from './compareRuns.ts';
import { TOTAL } from './episodeSample.ts';

/**
 * Score points (of a 0–100 score) a regression must exceed when no --threshold is given. Not 0: with
 * paired seeds a deterministic agent's interval shrinks to its difference, so a −0.01 drift (a changed
 * prompt, a rounding) fails CI; one point is below what anyone acts on and above that noise.
 */
export const DEFAULT_THRESHOLD = 1;

/** Version of the comparison document's layout; bumped when a field changes meaning. */
export const COMPARISON_FORMAT = 'arcbench.comparison/1';

export interface GateSettings {
  /** Games count too, not only each agent's total. */
  readonly perGame?: boolean;
  /** A regression fails the command (exit 1). */
  readonly failOnRegression?: boolean;
}

/** The rows that fail the gate: regressed totals, and with `perGame` also regressed games. */
export function regressions(comparison: RunComparison, settings: GateSettings = {}): ComparisonRow[] {
  return comparison.rows.filter((r) => r.regression && (r.game === TOTAL || settings.perGame === true));
}

export interface ComparisonDocument extends RunComparison {
  readonly format: typeof COMPARISON_FORMAT;
  readonly per_game: boolean;
  readonly fail_on_regression: boolean;
  readonly regressions: readonly ComparisonRow[];
  /** The gate failed: fail_on_regression was asked for and a regression was found. */
  readonly failed: boolean;
}

export function comparisonDocument(comparison: RunComparison, settings: GateSettings = {}): ComparisonDocument {
  const failing = regressions(comparison, settings);
  return {
    format: COMPARISON_FORMAT,
    ...comparison,
    per_game: settings.perGame === true,
    fail_on_regression: settings.failOnRegression === true,
    regressions: failing,
    failed: settings.failOnRegression === true && failing.length > 0,
  };
}
