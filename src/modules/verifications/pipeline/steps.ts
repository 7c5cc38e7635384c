import { signal } from '../../../engines/signal.js';
import { alpha3Codes } from '../../../engines/screening/countries.js';
import type { OcrEngine } from '../../../engines/text/index.js';
import type { RequestContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { evaluateProofOfAddress } from '../../checks/proof-of-address/index.js';
import { evaluateAge, evaluateFaceMatch, evaluateLiveness } from '../../checks/face/index.js';
import type { CheckOutcome } from '../../checks/kernel/index.js';
import { evaluateDocument, type DocumentUpload, type DocumentSettings } from '../../checks/document/index.js';
import type { JourneyCheckType } from '../../journeys/index.js';
import { type ScreeningIndexCache, evaluateScreening } from '../../checks/screening/index.js';
import { fieldsFromDocument, fullName, type SubjectFields } from '../fields.js';
import { screeningInputFor } from '../corrections/screening-input.js';

/** A captured medium of the session, decrypted. */
export interface CapturedMedium {
  id: string;
  kind: string;
  contentType: string;
  data: Buffer;
}

export interface StepResources {
  documentSettings: DocumentSettings;
  screening: ScreeningIndexCache;
  ocr: () => OcrEngine;
}

/** What the steps share as they run in journey order: the document's fields and portrait feed later steps. */
export interface StepState {
  ctx: RequestContext;
  media: Map<string, CapturedMedium>;
  subject: { reference: string | null; country: string | null };
  fields: SubjectFields;
  /** The document step read fields (they are stored with the results). */
  fieldsRead: boolean;
  portrait: Buffer | null;
  /** New media a step produced (the portrait crop), stored with the results. */
  produced: { kind: string; contentType: string; data: Buffer; check: JourneyCheckType }[];
  /** Which captured media each check read, for linking them to the check. */
  used: Map<JourneyCheckType, string[]>;
}

export type StepOutcome = CheckOutcome & { status: CheckOutcome['status'] };

/** An outcome the pipeline decides without an engine verdict (nothing captured, no name to screen …). */
export function withoutEngine(status: CheckOutcome['status'], reason: string, detail: string): StepOutcome {
  return { status, score: null, reasons: [reason], signals: [signal(reason, true, false, { detail })], model: [], timings: {}, result: {} };
}

const reviewStatus = (type: JourneyCheckType): CheckOutcome['status'] => (type === 'sanctions_pep' ? 'potential_match' : 'needs_review');

/**
 * Runs one journey check on the session's captures with the same evaluate functions the standalone
 * check endpoints call. Bad captures are outcomes (failed, with the engine's reason), never job
 * failures; a check that cannot run here (no list imported) goes to review. Other errors propagate,
 * so the job retries.
 */
export async function runStep(type: Exclude<JourneyCheckType, 'risk_score'>, settings: Record<string, unknown>, st: StepState, res: StepResources): Promise<StepOutcome> {
  try {
    return await STEPS[type](settings, st, res);
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid_request') {
      return withoutEngine(type === 'sanctions_pep' ? 'potential_match' : 'failed', 'capture_unusable', `The engine could not use the capture: ${err.message}`);
    }
    if (err instanceof AppError && err.code === 'check_unavailable') {
      return withoutEngine(reviewStatus(type), 'check_unavailable', err.message);
    }
    throw err;
  }
}

const selfie = (st: StepState) => st.media.get('selfie');

const STEPS: Record<Exclude<JourneyCheckType, 'risk_score'>, (settings: Record<string, unknown>, st: StepState, res: StepResources) => Promise<StepOutcome>> = {
  async document(settings, st, res) {
    const front = st.media.get('document_front');
    if (!front) return withoutEngine('failed', 'capture_missing', 'No document front was captured.');
    const uploads: DocumentUpload[] = [{ side: 'front', kind: 'document_front', contentType: front.contentType, data: front.data }];
    const back = st.media.get('document_back');
    if (back) uploads.push({ side: 'back', kind: 'document_back', contentType: back.contentType, data: back.data });
    const accepted = settings.accepted_countries as string[] | undefined;
    const e = await evaluateDocument({
      ctx: st.ctx,
      settings: res.documentSettings,
      uploads,
      rules: {
        ...(settings.accepted_types ? { expectedDocumentTypes: settings.accepted_types as string[] } : {}),
        ...(accepted ? { allowedCountries: accepted.flatMap(alpha3Codes) } : {}),
      },
    });
    if (e.fields) {
      st.fields = fieldsFromDocument(e.fields);
      st.fieldsRead = true;
    }
    st.portrait = e.portrait;
    if (e.portrait) st.produced.push({ kind: 'document_portrait', contentType: 'image/jpeg', data: e.portrait, check: 'document' });
    st.used.set('document', [front.id, ...(back ? [back.id] : [])]);
    return e.outcome;
  },

  async liveness(settings, st) {
    const s = selfie(st);
    if (!s) return withoutEngine('failed', 'capture_missing', 'No selfie was captured.');
    st.used.set('liveness', [s.id]);
    return evaluateLiveness([s.data], { threshold: settings.threshold as number | undefined });
  },

  async face_match(settings, st) {
    const s = selfie(st);
    const front = st.media.get('document_front');
    if (!s || !front) return withoutEngine('failed', 'capture_missing', !s ? 'No selfie was captured.' : 'No document was captured to compare the selfie with.');
    st.used.set('face_match', [s.id, front.id]);
    // The document step already cut the portrait out; without a document step the crop runs here.
    const portrait = st.used.has('document') ? st.portrait : undefined;
    return evaluateFaceMatch({ selfie: s.data, reference: front.data, referenceIsDocument: true, portrait, threshold: settings.threshold as number | undefined });
  },

  async age_estimation(settings, st) {
    const s = selfie(st);
    if (!s) return withoutEngine('failed', 'capture_missing', 'No selfie was captured.');
    st.used.set('age_estimation', [s.id]);
    return evaluateAge(s.data, (settings.minimum_age as number | undefined) ?? 18);
  },

  async sanctions_pep(settings, st, res) {
    // The same request a reviewer's correction re-runs (correction-screening.ts).
    const input = screeningInputFor(st.fields, settings as Parameters<typeof screeningInputFor>[1], st.subject);
    if (!input) return withoutEngine('potential_match', 'screening_no_name', 'No name was read from the document, so the subject could not be screened; a reviewer must.');
    return evaluateScreening({ ctx: st.ctx, cache: res.screening, input });
  },

  async proof_of_address(settings, st, res) {
    const doc = st.media.get('proof_of_address');
    if (!doc) return withoutEngine('failed', 'capture_missing', 'No proof-of-address document was captured.');
    const name = fullName(st.fields);
    if (!name) return withoutEngine('needs_review', 'poa_no_name', 'No name was read from the identity document to compare the address document with.');
    st.used.set('proof_of_address', [doc.id]);
    return evaluateProofOfAddress(doc.data, doc.contentType, {
      subjectName: name,
      country: st.subject.country ?? undefined,
      maxAgeDays: (settings.max_document_age_days as number | undefined) ?? 90,
      ocr: res.ocr(),
    });
  },
};
