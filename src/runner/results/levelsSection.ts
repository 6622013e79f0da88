/**
 * table.md's section on levels: per agent and game, how often each level was solved across the
 * episodes and repeats (an agent that solves a level once in five draws is not one that solves it), and
 * the actions and wall seconds spent on each level by the episodes that solved it.
 */
import { TOTAL } from '../../analysis/episodeSample.ts';
import { describeSolveCounts } from '../../analysis/levelProgress.ts';
import type { TableRow } from '../../runfolder/runReport.ts';

/** `1 of 2`: the levels every episode solved, of the levels some episode solved. */
export function steadyLevels(row: Pick<TableRow, 'level_solves' | 'episodes'>): string {
  const solves = row.level_solves ?? [];
  const some = solves.filter((n) => n > 0).length;
  if (some === 0) return 'none solved';
  return `${solves.filter((n) => n === row.episodes).length} of ${some}`;
}

/** `12 · 40.5 · –`: mean actions per level, `–` where no episode solved it. */
export function actionsPerLevel(row: Pick<TableRow, 'level_actions'>): string {
  const actions = row.level_actions ?? [];
  return actions.length === 0 ? 'no levels' : actions.map((a) => (a === null ? '–' : String(Math.round(a * 10) / 10))).join(' · ');
}

/** `1.2 · 3.4 · –`: mean seconds per level; `–` where no episode solved it, `unknown` for records without level times. */
export function secondsPerLevel(row: Pick<TableRow, 'level_seconds'>): string {
  if (row.level_seconds === undefined) return 'unknown';
  return row.level_seconds.length === 0 ? 'no levels' : row.level_seconds.map((s) => (s === null ? '–' : s.toFixed(2))).join(' · ');
}

/** A game row's cells of the section, as table.md and report.html show them. */
export function levelCells(row: TableRow): { solved: string; steady: string; actions: string; seconds: string } {
  return {
    solved: describeSolveCounts(row.level_solves ?? [], row.episodes),
    steady: steadyLevels(row),
    actions: actionsPerLevel(row),
    seconds: secondsPerLevel(row),
  };
}

/** The section, or nothing for rows of a run of an older version (no per-level counts kept). */
export function levelsMarkdown(rows: readonly TableRow[]): string {
  const games = rows.filter((row) => row.game !== TOTAL && row.level_solves !== undefined && row.episodes > 0);
  if (games.length === 0) return '';
  const lines = [
    '## Levels across episodes and repeats',
    '',
    '| agent | game | solved per level (episodes) | solved every time | actions per level (mean, when solved) | seconds per level (mean, when solved) |',
    '| --- | --- | --- | ---: | --- | --- |',
    ...games.map((row) => {
      const cells = levelCells(row);
      return `| ${row.agent} | ${row.game} | ${cells.solved} | ${cells.steady} | ${cells.actions} | ${cells.seconds} |`;
    }),
  ];
  return `\n${lines.join('\n')}\n`;
}
