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

/**
 * The same model (L2 on standardised weights, intercept free, loss summed over samples) for wide features
 * (hundreds to thousands of columns, fewer rows: Newton's d × d system would be slow), by Nesterov-accelerated
 * gradient descent with step 1/L, L bounded by power iteration. `sdFloor` keeps nearly constant columns (rare
 * histogram bins) from being blown up by standardisation.
 */
export function fitLogisticWide(
  X: ArrayLike<number>[],
  y: number[],
  lambda: number,
  o: { sdFloor?: number; maxIterations?: number; tolerance?: number } = {},
): { mean: number[]; sd: number[]; w: number[]; b: number } {
  const n = X.length;
  const d = X[0]!.length;
  const sdFloor = o.sdFloor ?? 1e-3;
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (const x of X) for (let j = 0; j < d; j++) mean[j]! += x[j]! / n;
  for (const x of X) for (let j = 0; j < d; j++) sd[j]! += (x[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) sd[j] = Math.max(sdFloor, Math.sqrt(sd[j]!));
  // Rows with a leading 1 for the intercept.
  const Z = X.map((x) => {
    const z = new Float64Array(d + 1);
    z[0] = 1;
    for (let j = 0; j < d; j++) z[j + 1] = (x[j]! - mean[j]!) / sd[j]!;
    return z;
  });
  const dot = (a: Float64Array, b: Float64Array): number => {
    let s = 0;
    for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
    return s;
  };
  // Largest eigenvalue of ZᵀZ by power iteration: the loss's curvature is at most a quarter of it.
  let v = new Float64Array(d + 1).fill(1 / Math.sqrt(d + 1));
  let top = 0;
  for (let it = 0; it < 50; it++) {
    const u = new Float64Array(d + 1);
    for (const z of Z) {
      const s = dot(z, v);
      for (let k = 0; k <= d; k++) u[k]! += s * z[k]!;
    }
    top = Math.sqrt(dot(u, u));
    v = u.map((x) => x / top);
  }
  const step = 1 / (0.25 * top + lambda);
  const gradient = (beta: Float64Array): Float64Array => {
    const g = new Float64Array(d + 1);
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-dot(Z[i]!, beta)));
      const r = p - y[i]!;
      const z = Z[i]!;
      for (let k = 0; k <= d; k++) g[k]! += r * z[k]!;
    }
    for (let k = 1; k <= d; k++) g[k]! += lambda * beta[k]!;
    return g;
  };
  let beta = new Float64Array(d + 1);
  let prev = beta;
  const maxIterations = o.maxIterations ?? 5000;
  const tolerance = o.tolerance ?? 1e-4;
  for (let it = 1; it <= maxIterations; it++) {
    const m = (it - 1) / (it + 2);
    const look = beta.map((b, k) => b + m * (b - prev[k]!));
    const g = gradient(look);
    prev = beta;
    beta = look.map((b, k) => b - step * g[k]!);
    if (Math.sqrt(dot(g, g)) < tolerance * n) break;
  }
  return { mean: [...mean], sd: [...sd], w: [...beta.subarray(1)], b: beta[0]! };
}
