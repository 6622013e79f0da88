/**
 * What counts as a secret, in one place: the field names every log and results file redacts, and the
 * text that replaces them. The runner's logs, the server's logs and run.json all use this list.
 */

export const REDACTED = '[redacted]';

/** A field or variable named like a key, token, secret or password (`api_key`, `OPENAI_API_KEY`, `authToken`). */
export function looksSecret(name: string): boolean {
  return /(key|token|secret|passw(or)?d|authorization|credential)s?$/i.test(name.replace(/[^A-Za-z]/g, ''));
}

/** pino redaction paths: the key header and key-named fields, at the depths our log lines put them. */
export const LOG_REDACT_PATHS = [
  'apiKey',
  'api_key',
  '*.apiKey',
  '*.api_key',
  '*.*.api_key',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
];

/** A deep copy of `value` with every secret-named field replaced by REDACTED (for run.json and tables). */
export function redactSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecretFields);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, looksSecret(key) && item !== null && item !== undefined && item !== '' ? REDACTED : redactSecretFields(item)]),
  );
}
