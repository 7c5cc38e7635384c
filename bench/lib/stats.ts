// Small measurement helpers shared by the benchmarks.

/** The p-th percentile (nearest rank) of xs. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** Largest gap between 5 ms timer ticks beyond their period while it runs: how long the event loop stalled. */
export function lagProbe(): () => number {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 5);
    last = now;
  }, 5);
  return () => {
    clearInterval(timer);
    return Math.max(max, performance.now() - last - 5);
  };
}

/** FNV-1a of a group's name, low bit: a fixed, seed-free split into halves (0: calibration, 1: test). */
export function half(group: string): 0 | 1 {
  let h = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) h = Math.imul(h ^ group.charCodeAt(i), 0x01000193);
  return ((h >>> 0) & 1) as 0 | 1;
}

/** Wilson score interval (95 %) of k successes in n. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const m = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - m), Math.min(1, c + m)];
}

/** "0.123 [0.100, 0.150] (k/n)": a rate with its 95 % interval and counts. */
export function rateWithInterval(k: number, n: number): string {
  const [lo, hi] = wilson(k, n);
  return `${(k / (n || 1)).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}] (${k}/${n})`;
}
