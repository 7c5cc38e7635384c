/** Small statistics helpers shared by the poa, document-ai and contact benchmarks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function latencyRow(label: string, ms: readonly number[]): string {
  return `| ${label} | ${ms.length} | ${percentile(ms, 50).toFixed(2)} | ${percentile(ms, 99).toFixed(2)} | ${Math.max(...ms).toFixed(2)} |`;
}

export const LATENCY_HEADER = '| what | n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|';

export function ratio(hit: number, total: number): string {
  return total === 0 ? 'n/a' : `${hit}/${total} = ${(hit / total).toFixed(3)}`;
}

export function argNumber(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split('=')[1]) : fallback;
}
