/**
 * The fingerprint of a run's plan: everything that decides which episodes it plays and how each one
 * goes (seed, episodes per game, per-episode budgets, agents with their use, params and labels, the
 * games), with a hash of it. A resume compares fingerprints field by field, so a refusal can say what
 * changed instead of only that something did.
 */
import { createHash } from 'node:crypto';
import { redactSecretFields } from '../../redaction.ts';
import type { Experiment } from '../config/loader.ts';
import type { Plan } from '../plan.ts';
import type { PlanFingerprint } from '../../runfolder/runReport.ts';

/** JSON with object keys sorted at every depth, `undefined` left out: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Agents and games are sorted: their order in the file changes the order episodes start in, not what
 * any episode is (seeds derive from label, game and index). Params are kept with their secret-named
 * fields redacted: the fingerprint goes into run.json, and a rotated API key changes no episode.
 */
export function planFingerprint(experiment: Experiment, plan: Plan): PlanFingerprint & { planned_episodes: number } {
  const { config } = experiment;
  // run_seconds decides when a run stops, not what an episode is: a partial run may be resumed with more time.
  const { run_seconds: _runSeconds, ...budgets } = config.budgets;
  const inputs = {
    seed: config.seed,
    episodes: config.episodes,
    // Only when there are several, so a run of one repeat keeps the fingerprint it had before repeats existed.
    ...(config.repeats > 1 ? { repeats: config.repeats } : {}),
    budgets: JSON.parse(canonicalJson(budgets)) as Record<string, unknown>,
    agents: experiment.agents.map((a) => ({ label: a.label, use: a.use, params: redactSecretFields(a.params) })).sort((a, b) => byText(a.label, b.label)),
    games: plan.games.map((g) => g.game_id).sort(byText),
  };
  const hash = createHash('sha256').update(canonicalJson(inputs)).digest('hex');
  return { hash, ...inputs, planned_episodes: plan.episodes.length };
}

const shown = (value: unknown) => {
  const text = value === undefined ? '(none)' : canonicalJson(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** What differs between the run's fingerprint and the experiment's now, one phrase each (empty: same episodes). */
export function fingerprintDifferences(run: PlanFingerprint, now: PlanFingerprint): string[] {
  if (run.hash === now.hash) return [];
  const changes: string[] = [];
  const compare = (field: string, was: unknown, is: unknown) => {
    if (canonicalJson(was ?? null) !== canonicalJson(is ?? null)) changes.push(`${field} (was ${shown(was)}, now ${shown(is)})`);
  };
  compare('seed', run.seed, now.seed);
  compare('episodes', run.episodes, now.episodes);
  compare('repeats', run.repeats ?? 1, now.repeats ?? 1);
  for (const key of new Set([...Object.keys(run.budgets), ...Object.keys(now.budgets)])) compare(`budgets.${key}`, run.budgets[key], now.budgets[key]);
  const gone = run.games.filter((g) => !now.games.includes(g));
  const added = now.games.filter((g) => !run.games.includes(g));
  if (gone.length > 0) changes.push(`games no longer selected: ${gone.join(', ')}`);
  if (added.length > 0) changes.push(`games newly selected: ${added.join(', ')}`);
  const nowAgents = new Map(now.agents.map((a) => [a.label, a]));
  for (const agent of run.agents) {
    const current = nowAgents.get(agent.label);
    if (current === undefined) {
      changes.push(`agent "${agent.label}" is no longer in the experiment`);
      continue;
    }
    compare(`agents[${agent.label}].use`, agent.use, current.use);
    compare(`agents[${agent.label}].params`, agent.params, current.params);
  }
  for (const agent of now.agents) if (!run.agents.some((a) => a.label === agent.label)) changes.push(`agent "${agent.label}" is new`);
  return changes.length > 0 ? changes : ['the plan fingerprint differs'];
}
