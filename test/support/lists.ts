/**
 * Items of lists that a test expects to be there. Under noUncheckedIndexedAccess `list[0]` may be
 * undefined; these read it, and fail with a sentence that says what was missing rather than a
 * TypeError a few lines later.
 */

/** The item at `index` (0 or more: a -1 from a findIndex that found nothing fails here too). */
export function itemAt<T>(list: readonly T[], index: number, what = 'item'): T {
  const item = index >= 0 ? list[index] : undefined;
  if (item === undefined) throw new Error(`expected a ${what} at index ${index}, but the list holds ${list.length}`);
  return item;
}

export function firstOf<T>(list: readonly T[], what = 'item'): T {
  return itemAt(list, 0, what);
}

export function lastOf<T>(list: readonly T[], what = 'item'): T {
  return itemAt(list, list.length - 1, what);
}
