/** Jaro similarity of two strings (0..1), by UTF-16 code unit; callers pass normalised ASCII. */
export function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  // Bit masks keep this allocation-free for tokens up to 32 characters, which covers names.
  if (la <= 32 && lb <= 32) return jaroSmall(a, b, la, lb, window);
  const matchedB = new Uint8Array(lb);
  const matchedA = new Uint8Array(la);
  let m = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (!matchedB[j] && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        m++;
        break;
      }
    }
  }
  if (m === 0) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (!matchedA[i]) continue;
    while (!matchedB[k]) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) t++;
    k++;
  }
  return (m / la + m / lb + (m - t / 2) / m) / 3;
}

function jaroSmall(a: string, b: string, la: number, lb: number, window: number): number {
  let maskA = 0;
  let maskB = 0;
  let m = 0;
  for (let i = 0; i < la; i++) {
    const c = a.charCodeAt(i);
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      const bit = 1 << j;
      if ((maskB & bit) === 0 && c === b.charCodeAt(j)) {
        maskA |= 1 << i;
        maskB |= bit;
        m++;
        break;
      }
    }
  }
  if (m === 0) return 0;
  let t = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if ((maskA & (1 << i)) === 0) continue;
    while ((maskB & (1 << k)) === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) t++;
    k++;
  }
  return (m / la + m / lb + (m - t / 2) / m) / 3;
}

/** Jaro-Winkler with the usual prefix scale 0.1 over at most 4 characters. */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j === 0) return 0;
  let p = 0;
  const max = Math.min(4, a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return j + p * 0.1 * (1 - j);
}
