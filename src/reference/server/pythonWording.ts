/**
 * Values as the toolkit's server (Python) writes them, where its words quote a value a client sent: str()
 * of a JSON value, and the length of json.dumps' text, which it checks a size limit against.
 */

/** `~`: json.dumps escapes everything after it (with ensure_ascii, its default). */
const LAST_PRINTABLE_ASCII = 0x7e;

/** `value` as Python's str() writes it, for the JSON values whose text is plain; undefined for others. */
export function pythonText(value: unknown): string | undefined {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The bytes of `value` as Python's json.dumps writes it compactly (`separators=(",", ":")`): every
 * character outside printable ASCII as a \uXXXX escape, DEL too. Exact for JSON without fractions or
 * exponents; a number Python writes otherwise (`1.0`, `1e+21`) may differ by a character or two.
 */
export function pythonJsonBytes(value: unknown): number {
  const text = JSON.stringify(value ?? null);
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > LAST_PRINTABLE_ASCII) bytes += 5;
  return bytes;
}
