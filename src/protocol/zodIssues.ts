/**
 * zod issues as `path: what is wrong` sentences. Unions are unwrapped to the branch the user evidently
 * meant (the one whose shape matched), so a typo inside `target: { server: … }` is reported at its key
 * instead of as "invalid input".
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

export function formatPath(path: Path): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** A branch whose issues are all below its root matched the shape: the user meant that one. */
function meantBranch(branches: readonly Issue[][]): Issue[] | undefined {
  const shaped = branches.filter((issues) => issues.every((issue) => issue.path.length > 0 || issue.code === 'unrecognized_keys'));
  if (shaped.length === 0) return undefined;
  return shaped.reduce((best, issues) => (issues.length < best.length ? issues : best));
}

function describeUnion(issue: Issue): string {
  const branches = (issue as { errors?: Issue[][] }).errors ?? [];
  const expected = branches
    .map((issues) => issues.find((i) => i.path.length === 0))
    .map((i) => (i && i.code === 'invalid_value' ? i.values.map((v) => JSON.stringify(v)).join(' or ') : i?.code === 'invalid_type' ? i.expected : undefined))
    .filter((x): x is string => x !== undefined);
  return expected.length > 0 ? `expected ${[...new Set(expected)].join(', or ')}` : issue.message;
}

function flatten(issue: Issue, prefix: Path): Array<{ path: Path; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branch = meantBranch((issue as { errors?: Issue[][] }).errors ?? []);
    if (branch) return branch.flatMap((inner) => flatten(inner, path));
    return [{ path, message: describeUnion(issue) }];
  }
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: [...path, key], message: 'is not a known key; remove it or check its spelling' }));
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [{ path, message: 'is required' }];
  return [{ path, message: issue.message }];
}

/** One line per problem: `path: message`. */
export function issueLines(issues: readonly Issue[], prefix: Path = []): string[] {
  return issues.flatMap((issue) => flatten(issue, prefix)).map(({ path, message }) => `${formatPath(path)}: ${message}`);
}
