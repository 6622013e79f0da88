/** The known word a mistyped one was most likely meant to be (`episods` → `episodes`), for "did you mean". */

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, case ignored. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // rows[i][j]: the distance between the first i characters of s and the first j of t.
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[s.length]![t.length]!;
}

/** How many leading letters two words share, case ignored. */
function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n]!.toLowerCase() === b[n]!.toLowerCase()) n++;
  return n;
}

/**
 * The candidate closest to `word`, when it is close enough to be a typo of it: at most a third of the
 * word's letters edited (at least one, at most three). Between candidates as close, the one that starts
 * like the word wins (`game` → `games`, not `name`: typos are rarer in a word's first letters).
 * Undefined when none is close enough, or two still tie.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const scored = candidates
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate), prefix: sharedPrefix(word, candidate) }))
    .filter((c) => c.distance <= allowed);
  scored.sort((a, b) => a.distance - b.distance || b.prefix - a.prefix);
  const [best, next] = scored;
  if (best === undefined || (next !== undefined && next.distance === best.distance && next.prefix === best.prefix)) return undefined;
  return best.candidate;
}
