// One row reused across calls (screening is synchronous), so the hot path allocates nothing.
let row = new Int32Array(64);

/** Edit distance with a single reusable row; names are short so O(n·m) is cheap. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (b.length + 1 > row.length) row = new Int32Array(2 * (b.length + 1));
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** 1 − distance / longer length, in 0..1. */
export function levenshteinRatio(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  return n === 0 ? 1 : 1 - levenshtein(a, b) / n;
}
