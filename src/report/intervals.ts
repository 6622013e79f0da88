/**
 * Confidence intervals of mean episode scores, read from run.json when the run's statistics put them
 * there. The report does not compute statistics; it shows what the run recorded, and is tolerant of
 * how it is spelled, so a run.json of any version renders: any object in run.json (at any depth up to
 * MAX_DEPTH) that names an agent (`agent` or `label`) and a game (`game` or `game_id`; none means the
 * agent's total) and carries an interval as `ci_low`/`ci_high`, `ci: [low, high]` or
 * `ci`/`interval: {low, high}` (or `{lower, upper}`) counts, with its `mean` (or `mean_score`) if any.
 */
import { TOTAL_ROW, type Interval } from './pageData.ts';

const MAX_DEPTH = 6;

export interface RecordedStatistic {
  interval: Interval | null;
  mean: number | null;
}

export const statisticKey = (agent: string, game: string) => `${agent}\u0000${game}`;

/** Every agent × game statistic found, keyed by statisticKey (game `total` for an agent's total). */
export function findStatistics(run: unknown): Map<string, RecordedStatistic> {
  const found = new Map<string, RecordedStatistic>();
  visit(run, 0, undefined, found);
  return found;
}

function visit(value: unknown, depth: number, agentAbove: string | undefined, found: Map<string, RecordedStatistic>): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, depth + 1, agentAbove, found);
    return;
  }
  const record = value as Record<string, unknown>;
  const agent = text(record.agent) ?? text(record.label) ?? agentAbove;
  const interval = intervalOf(record);
  if (agent !== undefined && interval !== undefined) {
    const game = text(record.game) ?? text(record.game_id) ?? TOTAL_ROW;
    const key = statisticKey(agent, game);
    if (!found.has(key)) found.set(key, { interval, mean: number(record.mean) ?? number(record.mean_score) ?? null });
  }
  for (const child of Object.values(record)) visit(child, depth + 1, agent, found);
}

/** The interval an object carries; null when it says one is unavailable (too few episodes). */
function intervalOf(record: Record<string, unknown>): Interval | null | undefined {
  if ('ci_low' in record || 'ci_high' in record) return pair(record.ci_low, record.ci_high);
  for (const key of ['ci', 'interval', 'confidence_interval']) {
    if (!(key in record)) continue;
    const value = record[key];
    if (value === null) return null;
    if (Array.isArray(value)) return pair(value[0], value[1]);
    if (typeof value === 'object') {
      const bounds = value as Record<string, unknown>;
      return pair(bounds.low ?? bounds.lower, bounds.high ?? bounds.upper);
    }
  }
  return undefined;
}

function pair(low: unknown, high: unknown): Interval | null {
  const l = number(low);
  const h = number(high);
  return l === undefined || h === undefined ? null : { low: l, high: h };
}

const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
