/**
 * `${VAR}` and `${VAR:-default}` in config strings take their value from the environment, so keys and
 * URLs stay out of committed files.
 */
import { ArcbenchError } from '../../errors.ts';
import { formatPath } from '../../protocol/zodIssues.ts';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class MissingVariableError extends ArcbenchError {
  constructor(message: string) {
    super('CONFIG_MISSING_VARIABLE', message);
  }
}

/** A copy of `value` with every reference expanded; a reference to an unset variable without default throws. */
export function expandEnvironment(value: unknown, env: NodeJS.ProcessEnv, path: (string | number)[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new MissingVariableError(
        `${formatPath(path)}: environment variable ${name} is not set; export it (export ${name}=…) or write \${${name}:-default} in the config`,
      );
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => expandEnvironment(item, env, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandEnvironment(item, env, [...path, key])]));
  }
  return value;
}

/** True when the string holds a `${…}` reference (its expanded value may be a secret). */
export function hasReference(value: string): boolean {
  return new RegExp(REFERENCE.source).test(value);
}
