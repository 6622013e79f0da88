/** How numbers, times and outcomes read on the page. */

export function score(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : value.toFixed(2);
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  if (value < 60) return `${value.toFixed(value < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(value / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(value % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `2025-01-31 12:05:09 UTC` from an ISO timestamp. */
export function timestamp(iso: string | null): string {
  if (iso === null) return '–';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
}

/** Seconds between two ISO timestamps, or null. */
export function elapsed(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

const OUTCOME_WORDS: Record<string, string> = {
  win: 'win',
  budget: 'action budget',
  level_budget: 'level budget',
  agent_stop: 'agent stopped',
  time: 'out of time',
  cost: 'cost budget',
  cancelled: 'cancelled',
  error: 'error',
};

export function outcome(value: string): string {
  return OUTCOME_WORDS[value] ?? value;
}

/** A game as the page names it: its title and id (`Flood (flod-5d9a2f1e)`), or the id alone when the title is unknown. */
export function gameName(id: string, title: string | null | undefined): string {
  return title ? `${title} (${id})` : id;
}

/** A CSS class fragment from any word: `in progress` → `in-progress`. */
export function slug(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
