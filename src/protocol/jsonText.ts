/**
 * JSON text of any JSON value, however deeply nested. JSON.stringify recurses and overflows the stack
 * near a few thousand levels, though `reasoning` nested 5,000 deep is only 10 KB, well under its 16 KiB
 * limit, and JSON.parse reads it fine. So JSON.stringify is tried first (it is fast, and right for
 * every value it can handle), and only a value too deep for it is written by the loop below, with the
 * same rules: `toJSON` is called, `undefined`, functions and symbols are left out of objects and become
 * `null` in arrays, numbers that are not finite become `null`, a cycle or a bigint throws a TypeError.
 */

/** The JSON text of `value`, or undefined when it has none (undefined, a function, a symbol). */
export function stringifyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyDeep(value);
  }
}

/** Where the loop is: the value to write next, or the closing text of a container being written. */
type Step = { value: unknown; key?: string; first: boolean } | { close: string; container: object };

/** Exported for its tests: the loop alone, whatever the depth. */
export { stringifyDeep };

/**
 * The loop behind stringifyJson: an explicit stack of what remains to write, so depth costs memory, not
 * stack. Each container pushes its closing bracket and then its members in reverse order.
 */
function stringifyDeep(root: unknown): string | undefined {
  const rootValue = prepared(root, '');
  if (!isWritable(rootValue)) return undefined;
  const out: string[] = [];
  const open = new Set<object>();
  const stack: Step[] = [{ value: rootValue, first: true }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if ('close' in step) {
      out.push(step.close);
      open.delete(step.container);
      continue;
    }
    if (!step.first) out.push(',');
    if (step.key !== undefined) out.push(JSON.stringify(step.key), ':');
    writeValue(step.value, out, stack, open);
  }
  return out.join('');
}

function writeValue(value: unknown, out: string[], stack: Step[], open: Set<object>): void {
  if (value === null || typeof value !== 'object') {
    out.push(scalarText(value));
    return;
  }
  if (open.has(value)) throw new TypeError('Converting circular structure to JSON');
  open.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    stack.push({ close: ']', container: value });
    for (let i = value.length - 1; i >= 0; i--) {
      const item = prepared(value[i], String(i));
      stack.push({ value: isWritable(item) ? item : null, first: i === 0 });
    }
    return;
  }
  out.push('{');
  stack.push({ close: '}', container: value });
  const members = Object.keys(value)
    .map((key) => [key, prepared((value as Record<string, unknown>)[key], key)] as const)
    .filter(([, item]) => isWritable(item));
  for (let i = members.length - 1; i >= 0; i--) {
    const [key, item] = members[i]!;
    stack.push({ value: item, key, first: i === 0 });
  }
}

/** The value as JSON.stringify sees it: after `toJSON`, with boxed primitives unboxed. */
export function prepared(value: unknown, key: string): unknown {
  let result = value;
  if (result !== null && typeof result === 'object' && typeof (result as { toJSON?: unknown }).toJSON === 'function') {
    result = (result as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (result instanceof Number || result instanceof String || result instanceof Boolean) result = result.valueOf();
  return result;
}

/** Whether JSON.stringify writes the value (it leaves undefined, functions and symbols out). */
export function isWritable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function scalarText(value: unknown): string {
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value) ?? 'null';
}
