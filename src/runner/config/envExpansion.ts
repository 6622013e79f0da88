/**
 * `${VAR}` and `${VAR:-default}` in config strings take their value from the environment, so keys and
 * URLs stay out of committed files.
 */
import { ArcbenchError } from '../../errors.ts';
import { formatPath } from '../../protocol/zodIssues.ts';
import { looksSecret } from '../../redaction.ts';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Every unset variable the config refers to without a default, one line each. */
export class MissingVariableError extends ArcbenchError {
  readonly lines: readonly string[];
  constructor(lines: readonly string[]) {
    super('CONFIG_MISSING_VARIABLE', lines.join('\n'));
    this.lines = lines;
  }
}

function missingLine(path: readonly (string | number)[], name: string): string {
  const remedy = looksSecret(name)
    ? `export it before the run (export ${name}=…); a secret does not belong in the file`
    : `export it (export ${name}=…) or give a default: \${${name}:-value}`;
  return `${formatPath(path)}: environment variable ${name} is not set; ${remedy}`;
}

/**
 * The service root is not a secret (it is shown as the run's target, and a URL with credentials is
 * refused): taking it from ARC_BASE_URL must not hide it from every log line and scorecard link.
 */
const NOT_SECRET = JSON.stringify(['target', 'url']);

function expandInto(value: unknown, env: NodeJS.ProcessEnv, path: (string | number)[], missing: string[], taken: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') {
        if (JSON.stringify(path) !== NOT_SECRET) taken.push(found);
        return found;
      }
      if (fallback !== undefined) return fallback;
      missing.push(missingLine(path, name));
      return match;
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandInto(item, env, [...path, i], missing, taken));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandInto(item, env, [...path, key], missing, taken)]));
  }
  return value;
}

/**
 * A copy of `value` with every reference expanded; references to unset variables without default throw,
 * all named at once. `taken` receives the values that came from the environment: all of them are
 * treated as secrets (redaction.ts).
 */
export function expandEnvironment(value: unknown, env: NodeJS.ProcessEnv, taken: string[] = []): unknown {
  const missing: string[] = [];
  const expanded = expandInto(value, env, [], missing, taken);
  if (missing.length > 0) throw new MissingVariableError(missing);
  return expanded;
}
