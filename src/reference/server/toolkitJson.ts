/**
 * JSON as the toolkit's web framework writes it (Flask's `jsonify`, docs/protocol.md §7a), wherever a client
 * could read the difference: keys sorted at every depth, scores written as floating-point numbers
 * (`0.0`, `100.0`: a Python client reads a float, never an int), a newline at the end, and
 * `Content-Type: application/json` without a charset. Only the wording changes; every value stays as the service answered it.
 */
import type { FastifyInstance } from 'fastify';

/** The fields the toolkit's scorecard models declare as floats; `opaque` is the caller's own JSON, echoed as sent. */
const FLOAT_FIELDS = new Set(['score', 'level_scores']);
const OPAQUE_FIELD = 'opaque';

/** Rewords every JSON answer of `app` as the toolkit's server writes it. */
export function installToolkitJson(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    // Frames come as the frame encoder's bytes, everything else as fastify's text.
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    if (!type.startsWith('application/json') || text === undefined) return payload;
    reply.header('content-type', 'application/json');
    return `${toolkitJsonText(JSON.parse(text) as unknown)}\n`;
  });
}

/** `value` as Flask's jsonify writes it: compact, keys sorted, the float fields with a decimal point. */
export function toolkitJsonText(value: unknown, asFloat = false): string {
  if (Array.isArray(value)) return `[${value.map((item) => toolkitJsonText(item, asFloat)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${key === OPAQUE_FIELD ? sortedJsonText(field) : toolkitJsonText(field, FLOAT_FIELDS.has(key))}`).join(',')}}`;
  }
  if (asFloat && typeof value === 'number' && Number.isInteger(value)) return `${value}.0`;
  return JSON.stringify(value);
}

/** The caller's own JSON: keys sorted, as Flask sorts them, numbers as they came. */
function sortedJsonText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${sortedJsonText(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
