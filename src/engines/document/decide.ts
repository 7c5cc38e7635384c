import { signal, type CheckVerdict, type Signal } from '../signal.js';
import type { ParsedMrz } from './mrz-parse.js';
import type { QualityResult } from './quality.js';
import type { TamperResult } from './tamper.js';
import type { VizComparison } from './viz.js';
import type { DocumentFields, ReadDocumentOptions } from './types.js';

/** Every reason code the engine emits, with the verdict it leads to. Stable: callers and reviewers key on them. */
export const REASON_CODES = {
  mrz_check_digit_invalid: 'failed',
  mrz_field_invalid: 'failed',
  document_expired: 'failed',
  under_minimum_age: 'failed',
  issuing_country_not_allowed: 'failed',
  document_type_not_accepted: 'failed',
  specimen_document: 'failed',
  no_machine_readable_zone: 'needs_review',
  mrz_unreadable: 'needs_review',
  mrz_field_ambiguous: 'needs_review',
  image_blurry: 'needs_review',
  low_resolution: 'needs_review',
  glare_detected: 'needs_review',
  document_out_of_frame: 'needs_review',
  editing_software_detected: 'needs_review',
  screenshot_suspected: 'needs_review',
  screen_moire: 'needs_review',
  mrz_print_inconsistent: 'needs_review',
  viz_mrz_mismatch: 'needs_review',
  viz_name_mismatch: 'needs_review',
  viz_name_disagreement: 'needs_review',
  unknown_issuing_state: 'needs_review',
  expiry_date_missing: 'needs_review',
  birth_date_missing: 'needs_review',
} as const satisfies Record<string, CheckVerdict>;

export type ReasonCode = keyof typeof REASON_CODES;

/** OCR confidence above which a failing check digit is blamed on the document rather than on the reading. */
const CONFIDENT_OCR = 60;

export interface DecisionInput {
  fields: DocumentFields | null;
  mrz: ParsedMrz | null;
  mrzConfidence: number;
  /** Other OCR passes that reproduced the failing fields exactly. */
  mrzFailureAgreement: number;
  /** Whether one of those passes was the other OCR engine (required when two engines ran). */
  mrzFailureCrossEngine?: boolean;
  /** How many OCR engines read the MRZ (1 or 2). */
  mrzEngines?: number;
  /** Fields read two ways that both pass, made valid only by an unsupported substitution, or names read two ways. */
  mrzUncertainFields?: string[];
  barcodeRead: boolean;
  quality: QualityResult;
  tamper: TamperResult;
  viz: VizComparison | null;
  options: ReadDocumentOptions;
  now: Date;
}

export function decide(input: DecisionInput): { verdict: CheckVerdict; reasons: ReasonCode[]; signals: Signal[] } {
  const reasons = new Set<ReasonCode>();
  const signals: Signal[] = [];
  const { fields, mrz, quality, tamper, options, now } = input;
  // Glare over the MRZ hides glyphs just as blur does, so it also makes a failing check digit inconclusive.
  const poorCapture = quality.blurry === true || quality.lowResolution === true || quality.glare;
  if (quality.blurry) reasons.add('image_blurry');
  if (quality.lowResolution) reasons.add('low_resolution');
  if (quality.glare) reasons.add('glare_detected');
  if (quality.outOfFrame) reasons.add('document_out_of_frame');
  if (tamper.editingSoftware) reasons.add('editing_software_detected');
  if (tamper.screenshot) reasons.add('screenshot_suspected');
  if (tamper.screenMoire) reasons.add('screen_moire');
  if (tamper.mrzPrintInconsistent) reasons.add('mrz_print_inconsistent');
  if (input.viz?.mismatch) reasons.add('viz_mrz_mismatch');
  if (input.viz?.nameMismatch) reasons.add('viz_name_mismatch');
  if (input.viz?.nameDisagreement) reasons.add('viz_name_disagreement');

  if (mrz) {
    const failed = mrz.checks.filter((c) => !c.valid).map((c) => c.field);
    signals.push(
      signal('mrz_check_digits', `${mrz.checks.length - failed.length}/${mrz.checks.length}`, failed.length === 0, {
        detail: failed.length
          ? `Failing: ${failed.join(', ')}; reproduced by ${input.mrzFailureAgreement} other OCR pass(es).`
          : 'All check digits valid.',
      }),
    );
    const structural = mrz.problems.filter((p) => !p.startsWith('unknown_'));
    // Failing checks only count against the document when a second reading reproduces them identically:
    // with two engines, a reading by the other engine (passes of one engine repeat its own misreads).
    const secondReading = input.mrzFailureAgreement >= 1 && ((input.mrzEngines ?? 1) < 2 || input.mrzFailureCrossEngine === true);
    const trustworthy = !poorCapture && input.mrzConfidence >= CONFIDENT_OCR && secondReading;
    // A failing check on a sharp, confidently read MRZ means the printed data is inconsistent (edited or
    // forged); on a poor capture it more likely means the OCR misread, which a reviewer or a retake settles.
    // A check position holding a letter is a glyph the OCR could not read, not a wrong digit.
    const illegible = mrz.checks.some((c) => !c.valid && !/^[0-9<]$/.test(c.digit));
    if (failed.length > 0) reasons.add(trustworthy && !illegible ? 'mrz_check_digit_invalid' : 'mrz_unreadable');
    // An impossible date that still satisfies its check digit was printed that way; a malformed state code,
    // sex or name (no check digit covers them) is far more often an OCR slip.
    const covered = structural.filter((p) => p === 'invalid_birth_date' || p === 'invalid_expiry_date');
    if (covered.length > 0) reasons.add(trustworthy && failed.length === 0 ? 'mrz_field_invalid' : 'mrz_unreadable');
    if (structural.length > covered.length) reasons.add('mrz_unreadable');
    // A field whose check digit is satisfied by two different readings (or only by a look-alike substitution
    // that no reading supports) may be wrong although "valid": a reviewer settles it, it never passes.
    const uncertain = [...new Set([...(input.mrzUncertainFields ?? []), ...unprotectedDoubts(mrz, fields)])];
    if (uncertain.length > 0) {
      reasons.add('mrz_field_ambiguous');
      signals.push(
        signal('mrz_field_ambiguous', uncertain.join(','), false, {
          detail: `Read two ways that both pass the check digit, made valid only by an unconfirmed substitution, or (names and nationality, which no check digit covers) read differently by the OCR engines, with a one-letter name part (a letter read as the filler <) or an unknown nationality code: ${uncertain.join(', ')}.`,
        }),
      );
    }
    if (mrz.problems.includes('unknown_issuing_state') && fields?.issuingState !== 'UTO') reasons.add('unknown_issuing_state');
  } else if (!input.barcodeRead) {
    reasons.add('no_machine_readable_zone');
    signals.push(signal('mrz_check_digits', null, false, { detail: 'No MRZ and no AAMVA barcode could be read.' }));
  }

  if (fields) {
    if (fields.issuingState === 'UTO' && !options.acceptSpecimens) reasons.add('specimen_document');
    if (fields.expiryDate === null) reasons.add('expiry_date_missing');
    else {
      const expired = fields.expiryDate < now.toISOString().slice(0, 10);
      if (expired) reasons.add('document_expired');
      signals.push(signal('document_expiry', fields.expiryDate, !expired, { threshold: now.toISOString().slice(0, 10) }));
    }
    if (fields.birthDate === null) {
      if (options.minimumAge !== undefined) reasons.add('birth_date_missing');
    } else {
      const age = ageOn(fields.birthDate, now);
      const ok = options.minimumAge === undefined ? null : age >= options.minimumAge;
      if (ok === false) reasons.add('under_minimum_age');
      signals.push(signal('holder_age', age, ok, options.minimumAge === undefined ? {} : { threshold: options.minimumAge }));
    }
    // A zone that could not be read gives no trustworthy type or country: a misread letter must not turn a
    // genuine document into a refused one (the reader asks for a retake or a reviewer instead).
    const misread = reasons.has('mrz_unreadable');
    if (options.allowedCountries && options.allowedCountries.length > 0) {
      const allowed = options.allowedCountries.map((c) => c.toUpperCase()).includes(fields.issuingState);
      if (!allowed && !misread) reasons.add('issuing_country_not_allowed');
      signals.push(signal('issuing_country_allowed', fields.issuingState, allowed, { threshold: options.allowedCountries.join(',') }));
    }
    if (options.expectedDocumentTypes && options.expectedDocumentTypes.length > 0) {
      const ok = options.expectedDocumentTypes.includes(fields.documentType);
      if (!ok && !misread) reasons.add('document_type_not_accepted');
      signals.push(signal('document_type_accepted', fields.documentType, ok, { threshold: options.expectedDocumentTypes.join(',') }));
    }
  }
  const list = [...reasons].sort((a, b) => severity(b) - severity(a) || a.localeCompare(b));
  const verdict: CheckVerdict = list.some((r) => REASON_CODES[r] === 'failed') ? 'failed' : list.length > 0 ? 'needs_review' : 'passed';
  return { verdict, reasons: list, signals };
}

function severity(r: ReasonCode): number {
  return REASON_CODES[r] === 'failed' ? 1 : 0;
}

/** Whole years between an ISO birth date and `now` (UTC). */
export function ageOn(birthIso: string, now: Date): number {
  const [y, m, d] = birthIso.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

/**
 * Fields no check digit covers that read implausibly: a name with a one-letter part (ERI<A: an OCR-B K
 * read as the filler; real MRZ names are written in full) or a nationality that is no known state code
 * (BSL for BEL). Found on real line crops (issue #19, bench/document-mrz-real.ts set B): such readings
 * were reported valid with a wrong field.
 */
function unprotectedDoubts(mrz: ParsedMrz, fields: DocumentFields | null): string[] {
  if (!fields) return [];
  const out: string[] = [];
  const oneLetterPart = (name: string): boolean => name.split(/[\s<]+/).some((p) => p.length === 1);
  if (oneLetterPart(fields.surname)) out.push('surname');
  if (oneLetterPart(fields.givenNames)) out.push('givenNames');
  if (mrz.problems.includes('unknown_nationality') && fields.nationality !== 'UTO') out.push('nationality');
  return out;
}
