/**
 * A function of an object made once per object and kept while the object lives. The memory hands out
 * the same Entry objects for its kept turns from call to call (memory.ts), so each provider renders a
 * turn into its API's terms once, not on every request. What it returns is shared by every later
 * caller, so callers copy before they change it.
 */
export function oncePerObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
