// L2-regularised logistic regression (Newton's method on standardised features), for bench/liveness-fused.ts.
/** L2-regularised logistic regression by Newton's method on standardised features. */
export function fitLogistic(X: number[][], y: number[], lambda = 1): { mean: number[]; sd: number[]; w: number[]; b: number } {
  const d = X[0]!.length;
  const n = X.length;
  const mean = Array.from({ length: d }, (_, j) => X.reduce((s, x) => s + x[j]!, 0) / n);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(X.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n) || 1);
  const Z = X.map((x) => x.map((v, j) => (v - mean[j]!) / sd[j]!));
  let beta = new Array(d + 1).fill(0); // [b, w...]
  for (let it = 0; it < 50; it++) {
    const g = new Array(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array(d + 1).fill(0));
    for (let i = 0; i < n; i++) {
      const z = [1, ...Z[i]!];
      const p = 1 / (1 + Math.exp(-z.reduce((s, v, k) => s + v * beta[k], 0)));
      for (let a = 0; a <= d; a++) {
        g[a] += (p - y[i]!) * z[a]!;
        for (let c = 0; c <= d; c++) H[a]![c] += p * (1 - p) * z[a]! * z[c]!;
      }
    }
    for (let a = 1; a <= d; a++) {
      g[a] += lambda * beta[a];
      H[a]![a] += lambda;
    }
    const step = solve(H, g);
    beta = beta.map((v, k) => v - step[k]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { mean, sd, w: beta.slice(1), b: beta[0] };
}
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k] = M[r]![k]! - f * M[c]![k]!;
    }
  }
  return M.map((r, i) => r[n]! / r[i]!);
}
export const predict = (m: { mean: number[]; sd: number[]; w: number[]; b: number }, x: number[]): number =>
  1 / (1 + Math.exp(-(m.b + x.reduce((s, v, j) => s + m.w[j]! * ((v - m.mean[j]!) / m.sd[j]!), 0))));
