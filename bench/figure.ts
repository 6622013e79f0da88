/** One measured figure of `npm run bench`: what was measured, its value, and the target if any. */
export interface BenchFigure {
  figure: string;
  value: number;
  unit: string;
  /** e.g. '≤ 15' or '≥ 50000'; the printer marks the figure as meeting it or not. */
  target?: { op: '<=' | '>='; value: number };
  note?: string;
}

/** A bench module default-exports one of these; bench/main.ts runs them all in one process. */
export type BenchSuite = { name: string; run(): Promise<BenchFigure[]> };
