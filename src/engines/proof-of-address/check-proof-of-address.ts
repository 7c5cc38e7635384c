import { signal, type CheckVerdict, type ModelInfo, type Signal } from '../signal.js';
import { extractText } from '../text/extract-text.js';
import { groupLines } from '../text/lines.js';
import type { OcrEngine } from '../text/ocr.js';
import type { InputLimits, TextDocument } from '../text/types.js';
import { classifyDocument, type Classification, type DocumentClass } from './classify.js';
import { CLASSIFIER_VERSION } from './classifier-weights.js';
import { extractPoaFields, type PoaFields } from './extract-fields.js';
import { matchHolderName } from './name-match.js';
import { analyseImageTampering } from '../document-ai/tamper-image.js';
import { analysePdfTampering } from '../document-ai/tamper-pdf.js';

export interface PoaOptions {
  /** The subject's name as given in the request. */
  subjectName: string;
  /** Expected country of residence, ISO 3166-1 alpha-2. */
  country?: string;
  maxAgeDays?: number;
  now?: Date;
  mime?: string;
  ocr?: OcrEngine;
  limits?: Partial<InputLimits>;
  /** Classes accepted as proof of address; `other` never is. */
  acceptedClasses?: readonly DocumentClass[];
  minClassConfidence?: number;
  nameMatchThreshold?: number;
  nameReviewThreshold?: number;
  /** Run the document-ai tamper analysis too (default true); a failed tamper signal asks for review. */
  tamperCheck?: boolean;
}

export type PoaReason =
  | 'document_class_not_accepted'
  | 'low_class_confidence'
  | 'name_not_found'
  | 'name_mismatch'
  | 'name_uncertain'
  | 'address_not_found'
  | 'address_unparsed'
  | 'country_mismatch'
  | 'issue_date_not_found'
  | 'document_too_old'
  | 'issue_date_in_future'
  | 'document_tampered';

const FAILING: ReadonlySet<PoaReason> = new Set([
  'document_class_not_accepted',
  'name_mismatch',
  'country_mismatch',
  'document_too_old',
  'issue_date_in_future',
]);

export interface PoaResult {
  verdict: CheckVerdict;
  reasons: PoaReason[];
  documentClass: DocumentClass;
  confidence: number;
  classification: Classification;
  fields: {
    name: string | null;
    address: { lines: string[]; postcode: string | null; city: string | null } | null;
    issueDate: string | null;
    country: string | null;
  };
  /** Confidence and page position of every extracted field. */
  fieldDetails: PoaFields;
  validations: Signal[];
  textSource: TextDocument['source'];
  model: ModelInfo;
  /** Tamper signals (PDF structure/metadata/fonts or image metadata/compression); empty when disabled. */
  tampering: Signal[];
  timings: { extractMs: number; analyseMs: number; tamperMs: number; totalMs: number };
}

export const POA_MODEL: ModelInfo = { name: 'verity-poa', version: `1.0.0+${CLASSIFIER_VERSION}` };

/** Full check from the uploaded bytes (PDF or image). Throws TextInputError for bad input. */
export async function checkProofOfAddress(input: Buffer, options: PoaOptions): Promise<PoaResult> {
  const t0 = performance.now();
  const doc = await extractText(input, options.mime, { ocr: options.ocr, limits: options.limits });
  const t1 = performance.now();
  const result = analyseProofOfAddress(doc, options);
  const t2 = performance.now();
  let tampering: Signal[] = [];
  if (options.tamperCheck !== false) {
    tampering = doc.mediaType === 'application/pdf' ? await analysePdfTampering(input) : await analyseImageTampering(input, doc.mediaType);
    // Tamper heuristics can misfire on legitimate re-saves, so they ask a person rather than fail alone.
    if (tampering.some((t) => t.passed === false)) {
      result.reasons.push('document_tampered');
      if (result.verdict === 'passed') result.verdict = 'needs_review';
    }
  }
  const t3 = performance.now();
  return { ...result, tampering, timings: { extractMs: ms(t1 - t0), analyseMs: ms(t2 - t1), tamperMs: ms(t3 - t2), totalMs: ms(t3 - t0) } };
}

/** The check on already extracted text: classification, fields and validations. */
export function analyseProofOfAddress(doc: TextDocument, options: PoaOptions): PoaResult {
  const now = options.now ?? new Date();
  const maxAgeDays = options.maxAgeDays ?? 90;
  const accepted = options.acceptedClasses ?? ['utility_bill', 'bank_statement', 'government_letter', 'tenancy_agreement'];
  const minConfidence = options.minClassConfidence ?? 0.6;
  const matchAt = options.nameMatchThreshold ?? 0.85;
  const reviewAt = options.nameReviewThreshold ?? 0.7;
  const expectedCountry = options.country?.toUpperCase();
  const reasons: PoaReason[] = [];
  const validations: Signal[] = [];

  const classification = classifyDocument(doc.pages.flatMap((p) => groupLines(p.words)));
  const classOk = accepted.includes(classification.class);
  // What the decision needs is how sure the model is that the document is *an accepted kind*, not which
  // one: a bill the model splits between utility bill (0.55) and bank statement (0.30) is an accepted
  // document with 0.85 confidence. A refused class is judged on its own probability.
  const acceptedMass = Math.round(accepted.reduce((sum, c) => sum + (classification.probabilities[c] ?? 0), 0) * 1000) / 1000;
  const confidence = classOk ? acceptedMass : classification.confidence;
  validations.push(signal('document_class', classification.class, classOk, { threshold: accepted.join('|') }));
  validations.push(
    signal('class_confidence', confidence, confidence >= minConfidence, {
      threshold: minConfidence,
      detail: classOk
        ? `Probability that the document is one of the accepted kinds (${classification.class} ${classification.confidence}).`
        : `Probability of ${classification.class}.`,
    }),
  );
  if (confidence < minConfidence) reasons.push('low_class_confidence');
  else if (!classOk) reasons.push('document_class_not_accepted');

  const fields = extractPoaFields(doc.pages, expectedCountry);
  if (!fields.name) {
    reasons.push('name_not_found');
    validations.push(signal('name_match', null, false, { threshold: matchAt, detail: 'No holder name was found on the document.' }));
  } else {
    const match = matchHolderName(fields.name.value, options.subjectName);
    const passed = match.score >= matchAt;
    validations.push(
      signal('name_match', match.score, passed, {
        threshold: matchAt,
        detail: `Document "${fields.name.value}" vs subject "${options.subjectName}".`,
      }),
    );
    if (!passed) reasons.push(match.score >= reviewAt ? 'name_uncertain' : 'name_mismatch');
  }

  if (!fields.address) {
    reasons.push('address_not_found');
    validations.push(signal('address_parsed', false, false));
  } else {
    validations.push(
      signal('address_parsed', fields.address.valid, fields.address.valid, {
        detail: `Postcode ${fields.address.postcode ?? 'missing'}, country from ${fields.address.countrySource ?? 'nothing'}.`,
      }),
    );
    if (!fields.address.valid) reasons.push('address_unparsed');
    if (expectedCountry) {
      const found = fields.address.country;
      const passed = found === expectedCountry;
      validations.push(signal('address_country', found, found === null ? null : passed, { threshold: expectedCountry }));
      if (found !== null && !passed) reasons.push('country_mismatch');
    }
  }

  if (!fields.issueDate) {
    reasons.push('issue_date_not_found');
    validations.push(signal('document_age_days', null, false, { threshold: maxAgeDays }));
  } else {
    const age = Math.floor(
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - Date.parse(`${fields.issueDate.iso}T00:00:00Z`)) / 86_400_000,
    );
    // A day of slack for time zones between issuer and server.
    const future = age < -1;
    validations.push(
      signal('document_age_days', age, !future && age <= maxAgeDays, { threshold: maxAgeDays, detail: `Issued ${fields.issueDate.iso}.` }),
    );
    if (future) reasons.push('issue_date_in_future');
    else if (age > maxAgeDays) reasons.push('document_too_old');
  }
  validations.push(signal('text_source', doc.source, null));

  const verdict: CheckVerdict = reasons.some((r) => FAILING.has(r)) ? 'failed' : reasons.length > 0 ? 'needs_review' : 'passed';
  return {
    verdict,
    reasons,
    documentClass: classification.class,
    confidence: classification.confidence,
    classification,
    fields: {
      name: fields.name?.value ?? null,
      address: fields.address ? { lines: fields.address.lines, postcode: fields.address.postcode, city: fields.address.city } : null,
      issueDate: fields.issueDate?.iso ?? null,
      country: fields.address?.country ?? null,
    },
    fieldDetails: fields,
    validations,
    textSource: doc.source,
    model: POA_MODEL,
    tampering: [],
    timings: { extractMs: 0, analyseMs: 0, tamperMs: 0, totalMs: 0 },
  };
}

function ms(n: number): number {
  return Math.round(n * 10) / 10;
}
