/**
 * Whether the agent behind a label changed between two runs (another `use`, other params): a
 * comparison of that label then measures the change of agent, and the reader must know it.
 */
import type { AgentSetup } from './episodeSample.ts';

/** One sentence per compared label whose agent differs between the runs (both runs must record it). */
export function agentChangeNotes(
  labels: readonly string[],
  baseline: Readonly<Record<string, AgentSetup>> | undefined,
  candidate: Readonly<Record<string, AgentSetup>> | undefined,
): string[] {
  const notes: string[] = [];
  for (const label of labels) {
    const before = baseline?.[label];
    const after = candidate?.[label];
    if (before === undefined || after === undefined) continue;
    const changes: string[] = [];
    if (before.use !== after.use) changes.push(`use ${before.use} → ${after.use}`);
    const params = changedParams(before.params, after.params);
    if (params.length > 0) changes.push(`params ${params.join(', ')}`);
    if (changes.length > 0) notes.push(`warning: ${label} is another agent in the candidate (${changes.join('; ')}); its rows compare two agents`);
  }
  return notes;
}

/** The top-level params whose values differ, `name old → new` (values as JSON, long ones cut). */
function changedParams(before: unknown, after: unknown): string[] {
  const a = asRecord(before);
  const b = asRecord(after);
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.filter((name) => canonical(a[name]) !== canonical(b[name])).map((name) => `${name} ${shown(a[name])} → ${shown(b[name])}`);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** JSON with object keys sorted, so that key order is no change. */
function canonical(value: unknown): string {
  if (value === undefined) return 'unset';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function shown(value: unknown): string {
  const text = canonical(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
