/**
 * Multinomial logistic regression: small enough to read (one weight per class and feature) and to
 * train in a second on the generated set. Used by bench/poa-train-classifier.ts; the engine only predicts.
 */
export interface SoftmaxModel {
  classes: string[];
  features: string[];
  /** weights[class][feature] */
  weights: number[][];
  bias: number[];
}

export function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((z) => Math.exp(z - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export function logits(model: SoftmaxModel, x: readonly number[]): number[] {
  return model.weights.map((w, c) => w.reduce((s, wi, i) => s + wi * (x[i] ?? 0), model.bias[c] ?? 0));
}

export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  /** L2 penalty: keeps weights small so no single keyword decides alone. */
  l2?: number;
}

export function trainSoftmax(
  classes: string[],
  features: string[],
  xs: number[][],
  ys: number[],
  options: TrainOptions = {},
): SoftmaxModel {
  const epochs = options.epochs ?? 400;
  const lr = options.learningRate ?? 0.5;
  const l2 = options.l2 ?? 0.003;
  const k = classes.length;
  const d = features.length;
  const weights = Array.from({ length: k }, () => new Array<number>(d).fill(0));
  const bias = new Array<number>(k).fill(0);
  const model: SoftmaxModel = { classes, features, weights, bias };
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gw = Array.from({ length: k }, () => new Array<number>(d).fill(0));
    const gb = new Array<number>(k).fill(0);
    xs.forEach((x, n) => {
      const p = softmax(logits(model, x));
      for (let c = 0; c < k; c++) {
        const err = (p[c] ?? 0) - (ys[n] === c ? 1 : 0);
        gb[c]! += err;
        for (let i = 0; i < d; i++) gw[c]![i]! += err * (x[i] ?? 0);
      }
    });
    for (let c = 0; c < k; c++) {
      bias[c]! -= (lr * gb[c]!) / xs.length;
      for (let i = 0; i < d; i++) weights[c]![i]! -= lr * (gw[c]![i]! / xs.length + l2 * weights[c]![i]!);
    }
  }
  return model;
}
