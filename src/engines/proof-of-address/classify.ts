import type { TextLine } from '../text/lines.js';
import { CLASSIFIER_MODEL } from './classifier-weights.js';
import { extractFeatures, FEATURE_NAMES } from './features.js';
import { logits, softmax, type SoftmaxModel } from './softmax-regression.js';

export type DocumentClass = 'utility_bill' | 'bank_statement' | 'government_letter' | 'tenancy_agreement' | 'other';

export interface FeatureContribution {
  feature: string;
  value: number;
  /** value × weight for the winning class: what pushed the decision and how hard. */
  contribution: number;
}

export interface Classification {
  class: DocumentClass;
  confidence: number;
  probabilities: Record<DocumentClass, number>;
  /** The strongest positive and negative contributions to the chosen class. */
  features: FeatureContribution[];
}

/** Classifies a document page from its text lines with the shipped softmax model. */
export function classifyDocument(lines: readonly TextLine[], model: SoftmaxModel = CLASSIFIER_MODEL): Classification {
  if (model.features.join(',') !== FEATURE_NAMES.join(','))
    throw new Error('classifier weights do not match the feature set; retrain with bench/poa-train-classifier.ts');
  const x = extractFeatures(lines);
  const p = softmax(logits(model, x));
  let best = 0;
  p.forEach((v, i) => {
    if (v > (p[best] ?? 0)) best = i;
  });
  const weights = model.weights[best] ?? [];
  const contributions = x
    .map((value, i) => ({ feature: model.features[i] ?? '', value, contribution: round(value * (weights[i] ?? 0)) }))
    .filter((c) => c.contribution !== 0)
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
    .slice(0, 8);
  const probabilities = Object.fromEntries(model.classes.map((c, i) => [c, round(p[i] ?? 0)])) as Record<DocumentClass, number>;
  return { class: model.classes[best] as DocumentClass, confidence: round(p[best] ?? 0), probabilities, features: contributions };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
