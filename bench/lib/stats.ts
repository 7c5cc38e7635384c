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
