/**
 * The run log as short lines for a person reading CI output: `12:04:31 episode finished agent=explorer
 * game=crat-a280ea19 episode=1 outcome=win actions=134 levels=6`. run.log keeps pino's JSON; this
 * stream gets the same lines and rewrites each before it reaches the CLI's stderr.
 */

const LEVEL_NAMES: Record<number, string> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every pino line has, shown in their own way (or not at all). */
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);
/** Nested values (provenance, totals) are shortened; run.log has them whole. */
const NESTED_LIMIT = 80;

function clockTime(epochMs: unknown): string {
  const at = typeof epochMs === 'number' ? new Date(epochMs) : new Date();
  return at.toTimeString().slice(0, 8);
}

function fieldValue(value: unknown): string {
  if (typeof value === 'number') return shortNumber(value);
  if (typeof value === 'string') return /\s/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (value !== null && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
    const { kind, message } = value as { kind?: unknown; message: string };
    return JSON.stringify(typeof kind === 'string' ? `${kind}: ${message}` : message);
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > NESTED_LIMIT ? `${text.slice(0, NESTED_LIMIT - 1)}…` : text;
}

/**
 * A fraction as a person reads it: two decimals from 1 up (a score of 3.5606361521389354 is 3.56), three
 * significant digits below (a cost of $0.00123 keeps its digits); whole numbers as they are.
 */
function shortNumber(value: number): string {
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  return String(Math.abs(value) >= 1 ? Number(value.toFixed(2)) : Number(value.toPrecision(3)));
}

/** One pino JSON line as a readable line; a line that is not JSON passes as it is. */
export function readableLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine.endsWith('\n') ? jsonLine : `${jsonLine}\n`;
  }
  const level = LEVEL_NAMES[entry.level as number];
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OWN_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  return `${[clockTime(entry.time), ...(level ? [level] : []), String(entry.msg ?? ''), ...fields].join(' ')}\n`;
}

/** Where readable lines go: the CLI hands in stderr. */
export interface LineSink {
  write(text: string): unknown;
}

/** A pino destination that rewrites each JSON line readably into `sink`. */
export function readableStream(sink: LineSink): LineSink {
  return { write: (line) => sink.write(readableLine(line)) };
}
