/**
 * An entry rendered into an API's terms once, not on every call: the memory hands out the same Entry
 * objects for its kept turns from call to call (memory.ts), so each request renders only what is new.
 * What it returns is shared by every later request, so callers copy before they change it.
 */
import type { Entry } from '../transcript.ts';

export function renderOnce<T>(render: (entry: Entry) => T): (entry: Entry) => T {
  const rendered = new WeakMap<Entry, T>();
  return (entry) => {
    let value = rendered.get(entry);
    if (value === undefined) {
      value = render(entry);
      rendered.set(entry, value);
    }
    return value;
  };
}
