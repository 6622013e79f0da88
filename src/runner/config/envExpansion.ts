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

/** Where expansion reports: values taken, variables missing, secrets left unset (when that is allowed). */
interface Expansion {
  readonly env: NodeJS.ProcessEnv;
  readonly missing: string[];
  readonly taken: string[];
  /** Given: an unset secret stays as written and is named here (pricing a plan needs no key). */
  readonly unsetSecrets: string[] | undefined;
}

function expandInto(value: unknown, path: (string | number)[], into: Expansion): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (match, name: string, fallback: string | undefined) => {
      const found = into.env[name];
      if (found !== undefined && found !== '') {
        if (JSON.stringify(path) !== NOT_SECRET) into.taken.push(found);
        return found;
      }
      if (fallback !== undefined) return fallback;
      if (into.unsetSecrets !== undefined && looksSecret(name)) {
        if (!into.unsetSecrets.includes(name)) into.unsetSecrets.push(name);
        return match;
      }
      into.missing.push(missingLine(path, name));
      return match;
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandInto(item, [...path, i], into));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandInto(item, [...path, key], into)]));
  }
  return value;
}

/**
 * A copy of `value` with every reference expanded; references to unset variables without default throw,
 * all named at once. `taken` receives the values that came from the environment: all of them are
 * treated as secrets (redaction.ts). With `unsetSecrets`, a secret's variable (a key) that is unset is
 * no error: it stays as written and its name is added there (`plan` and `validate` need no key).
 */
export function expandEnvironment(value: unknown, env: NodeJS.ProcessEnv, taken: string[] = [], unsetSecrets?: string[]): unknown {
  const missing: string[] = [];
  const expanded = expandInto(value, [], { env, missing, taken, unsetSecrets });
  if (missing.length > 0) throw new MissingVariableError(missing);
  return expanded;
}
