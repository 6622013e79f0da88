/**
 * The one formatter of zod issues, for config files and wire bodies alike: `path: what is wrong`
 * sentences in our words, saying what was expected and what was found. zod's own wording ("Too big:
 * expected number to be <=63") never reaches a user. Schemas that carry their own message keep it.
 *
 * Parse with `ISSUE_OPTIONS`: its error map words every issue a schema has no message for, and
 * `reportInput` keeps the value found, so a wrong type is never mistaken for a missing key.
 */
import { z } from 'zod';
import { shownValue } from '../redaction.ts';
import { closestWord } from './closestWord.ts';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;
type Path = readonly PropertyKey[];

export function formatPath(path: Path): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping (key: value)',
  array: 'a list',
  record: 'a mapping (key: value)',
  null: 'null',
  tuple: 'a list',
};

/**
 * How a value found in the input reads in a sentence; long strings are cut and key-like ones left out,
 * so no big value or secret (a key typed in the wrong field) is echoed.
 */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return value.length > 24 ? `a string of ${value.length} characters` : shownValue(value);
  return String(value);
}

const limitOf = (origin: string, bound: number | bigint, most: boolean): string => {
  if (origin === 'string') return `${most ? 'at most' : 'at least'} ${bound} character${bound === 1 ? '' : 's'} long`;
  if (origin === 'array' || origin === 'set') return `${most ? 'at most' : 'at least'} ${bound} item${bound === 1 ? '' : 's'}`;
  return `${most ? 'at most' : 'at least'} ${bound}`;
};

/** Our wording of one issue; undefined leaves zod's (only for codes we never meet). */
function ourWords(issue: RawIssue): string | undefined {
  const found = describeFound(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `expected ${NOUNS[issue.expected] ?? issue.expected}, found ${found}`;
    case 'too_big':
      return `must be ${limitOf(issue.origin, issue.maximum, true)}${issue.inclusive === false ? ' (exclusive)' : ''}, found ${found}`;
    case 'too_small':
      return `must be ${limitOf(issue.origin, issue.minimum, false)}${issue.inclusive === false ? ' (exclusive)' : ''}, found ${found}`;
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, found ${found}`;
    case 'invalid_format':
      return `expected ${issue.format === 'url' ? 'a URL' : `a ${issue.format}`}, found ${found}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}, found ${found}`;
    case 'unrecognized_keys':
      return issue.keys.map((key) => unknownKeyWords(key, knownKeysOf(issue.inst))).join('\n');
    default:
      return undefined;
  }
}

const UNKNOWN_KEY = 'is not a known key; remove it or check its spelling';

/** One sentence per unknown key (the issue's message, a line each, read back by flatten): with the known key it is closest to. */
function unknownKeyWords(key: string, known: readonly string[]): string {
  const meant = closestWord(key, known);
  return meant === undefined ? UNKNOWN_KEY : `is not a known key; did you mean \`${meant}\`?`;
}

/** The keys of the object schema that met an unknown one (zod gives the error map the schema as `inst`). */
function knownKeysOf(inst: unknown): string[] {
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  return shape === undefined ? [] : Object.keys(shape);
}

/** Options for every safeParse whose issues a person will read. */
export const ISSUE_OPTIONS = { reportInput: true, error: ourWords } as const;

/**
 * A branch whose issues are all below its root matched the shape: the user meant the one with the
 * fewest problems, each unknown key counted as one (a misspelt key should not lose to a branch that
 * rejects every key given in one issue).
 */
function meantBranch(branches: readonly Issue[][]): Issue[] | undefined {
  const shaped = branches.filter((issues) => issues.every((issue) => issue.path.length > 0 || issue.code === 'unrecognized_keys'));
  if (shaped.length === 0) return undefined;
  const problems = (issues: readonly Issue[]) => issues.reduce((sum, issue) => sum + (issue.code === 'unrecognized_keys' ? issue.keys.length : 1), 0);
  return shaped.reduce((best, issues) => (problems(issues) < problems(best) ? issues : best));
}

function describeUnion(issue: Issue & { errors?: Issue[][] }): string {
  const expected = (issue.errors ?? [])
    .map((issues) => issues.find((i) => i.path.length === 0))
    .map((i) =>
      i?.code === 'invalid_value'
        ? i.values.map((v) => JSON.stringify(v)).join(' or ')
        : i?.code === 'invalid_type'
          ? (NOUNS[i.expected] ?? i.expected)
          : undefined,
    )
    .filter((x): x is string => x !== undefined);
  if (expected.length === 0) return issue.message;
  return `expected ${[...new Set(expected)].join(', or ')}, found ${describeFound(issue.input)}`;
}

function flatten(issue: Issue, prefix: Path): Array<{ path: Path; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branch = meantBranch(issue.errors ?? []);
    if (branch) return branch.flatMap((inner) => flatten(inner, path));
    return [{ path, message: describeUnion(issue) }];
  }
  if (issue.code === 'unrecognized_keys') {
    // ourWords wrote one line per key; a schema's own message (or none) says the same for each.
    const lines = issue.message.split('\n');
    const words = lines.length === issue.keys.length && lines.every((line) => line.startsWith('is not a known key')) ? lines : undefined;
    return issue.keys.map((key, i) => ({ path: [...path, key], message: words?.[i] ?? UNKNOWN_KEY }));
  }
  return [{ path, message: issue.message }];
}

/** One line per problem: `path: message`. */
export function issueLines(issues: readonly Issue[], prefix: Path = []): string[] {
  return issues.flatMap((issue) => flatten(issue, prefix)).map(({ path, message }) => `${formatPath(path)}: ${message}`);
}

/** The same problems on one line, `; `-separated, for an error answer of the service (path `(body)` at the top). */
export function formatIssues(issues: readonly Issue[]): string {
  return issueLines(issues)
    .map((line) => (line.startsWith('(top level):') ? `(body):${line.slice('(top level):'.length)}` : line))
    .join('; ');
}

/** A whole number of at least 1, whose errors name `what` and the value found. */
export const positiveInt = (what: string) =>
  z
    .int({ error: (issue) => (issue.input === undefined ? 'is required' : `expected ${what} as a whole number, found ${describeFound(issue.input)}`) })
    .positive({ error: (issue) => `${what} must be at least 1, found ${describeFound(issue.input)}` });
