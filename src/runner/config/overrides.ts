/**
 * Command-line overrides of an experiment (`--seed --concurrency --games --episodes --max-actions
 * --agents`), and the experiment of a config-less first try (`arcbench run --agent random --game crat`).
 * Values are set on the raw config before validation, so they are checked (and worded) like the file.
 */

export interface ConfigOverrides {
  seed?: number;
  concurrency?: number;
  /** Replaces `games`: ids, slug prefixes or tags. */
  games?: readonly string[];
  episodes?: number;
  /** Replaces `budgets.max_actions`, keeping the other budgets. */
  max_actions?: number;
  /** Keeps only the agents with these labels (with a config file). */
  agents?: readonly string[];
}

export function applyOverrides(raw: Record<string, unknown>, overrides: ConfigOverrides): Record<string, unknown> {
  const result = { ...raw };
  if (overrides.seed !== undefined) result.seed = overrides.seed;
  if (overrides.concurrency !== undefined) result.concurrency = overrides.concurrency;
  if (overrides.games !== undefined) result.games = [...overrides.games];
  if (overrides.episodes !== undefined) result.episodes = overrides.episodes;
  if (overrides.max_actions !== undefined) {
    const budgets = typeof raw.budgets === 'object' && raw.budgets !== null && !Array.isArray(raw.budgets) ? raw.budgets : {};
    result.budgets = { ...budgets, max_actions: overrides.max_actions };
  }
  return result;
}

/**
 * The labels to keep, checked against the experiment's labels; the problem as a sentence when one is
 * unknown (null when all are known).
 */
export function unknownLabels(wanted: readonly string[], labels: readonly string[]): string | null {
  const unknown = wanted.filter((label) => !labels.includes(label));
  if (unknown.length === 0) return null;
  return `--agents: no agent labelled ${unknown.map((l) => `"${l}"`).join(', ')} in this experiment; its labels: ${labels.join(', ')}`;
}

/** The raw config of `arcbench run --agent A --game G` without a file: the quickstart's defaults otherwise. */
export function firstTryConfig(agents: readonly string[]): Record<string, unknown> {
  return { name: 'try', agents: agents.map((use) => ({ use })) };
}
