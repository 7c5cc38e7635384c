import { REASON_CODES } from '../../../engines/document/decide.js';
import { DocumentInputError } from '../../../engines/document/image-input.js';
import type { DocumentFields, DocumentResult, DocumentType } from '../../../engines/document/types.js';
import type { CheckVerdict, Signal } from '../../../engines/signal.js';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { invalid } from '../../../platform/errors.js';
import { decodeUpload, IMAGE_TYPES, type MediaInput, recordCheck, roundTimings, type CheckOutcome, type Check } from '../kernel/index.js';
import { DOCUMENT_READER } from './reader.js';
import type { Resources } from '../../../platform/resources.js';
import { documentResultBody, sideSummary } from './result.js';
import type { DocumentSettings } from './settings.js';
import type { DocumentCheckBody } from './schemas.js';

type Side = 'front' | 'back';
const SEVERITY: Record<CheckVerdict, number> = { passed: 0, needs_review: 1, failed: 2 };
/** Reasons that only say "this side carries no readable zone": normal for the side without the MRZ. */
const ZONE_MISSING = new Set(['no_machine_readable_zone', 'mrz_unreadable', 'expiry_date_missing', 'birth_date_missing']);

export interface DocumentUpload extends MediaInput {
  side: Side;
}

export interface DocumentEvaluation {
  outcome: CheckOutcome;
  /** The uploads plus the portrait crop (kept sealed for a later face match). */
  media: MediaInput[];
  fields: DocumentFields | null;
  portrait: Buffer | null;
}

export interface DocumentRules {
  minimumAge?: number;
  /** ICAO codes (alpha-3; DEU and D both mean Germany). */
  allowedCountries?: string[];
  expectedDocumentTypes?: string[];
}

/**
 * Reads the front (and the back, when given) with the document engine, outside any transaction.
 * The side whose zone was read (a valid MRZ first, then any fields) decides; the other side still
 * adds its capture and tamper findings, but not "no MRZ here", which is expected on one side of a card.
 * The standalone check and the session pipeline both call this.
 */
export async function evaluateDocument({
  ctx,
  settings,
  resources,
  uploads,
  rules,
}: {
  ctx: Pick<RequestContext, 'environment'>;
  settings: DocumentSettings;
  resources: Resources;
  uploads: DocumentUpload[];
  rules: DocumentRules;
}): Promise<DocumentEvaluation> {
  const options = {
    ...(rules.minimumAge !== undefined ? { minimumAge: rules.minimumAge } : {}),
    ...(rules.allowedCountries ? { allowedCountries: withGermanyAliases(rules.allowedCountries) } : {}),
    ...(rules.expectedDocumentTypes ? { expectedDocumentTypes: rules.expectedDocumentTypes as DocumentType[] } : {}),
    // Sandbox keys get the ICAO specimen state UTO accepted, so integrations can test with specimen documents.
    acceptSpecimens: ctx.environment === 'sandbox',
    limits: { maxBytes: settings.maxImageBytes, maxPixels: settings.maxPixels },
    mrzTimeBudgetMs: settings.mrzTimeBudgetMs,
  };
  const started = performance.now();
  const reads: { side: Side; r: DocumentResult }[] = [];
  for (const u of uploads) {
    try {
      reads.push({ side: u.side, r: await resources.get(DOCUMENT_READER).read(u.data, options) });
    } catch (err) {
      if (err instanceof DocumentInputError) throw invalid(u.side, `${u.side}: ${err.message} (${err.code}).`);
      throw err;
    }
  }
  const primary = reads.find((x) => x.r.mrz?.valid) ?? reads.find((x) => x.r.fields) ?? reads[0]!;
  const others = reads.filter((x) => x !== primary);
  const reasons = new Set(primary.r.reasons);
  let verdict = primary.r.verdict;
  const signals: Signal[] = [...primary.r.signals];
  const timings: Record<string, number> = {};
  for (const { side, r } of reads) for (const [k, v] of Object.entries(r.timings)) timings[`${side}_${k}`] = v;
  for (const { side, r } of others) {
    for (const code of r.reasons) {
      if (ZONE_MISSING.has(code) && primary.r.fields) continue;
      reasons.add(code);
      const v = (REASON_CODES as Record<string, CheckVerdict>)[code] ?? 'needs_review';
      if (SEVERITY[v] > SEVERITY[verdict]) verdict = v;
    }
    signals.push(...r.signals.map((s) => ({ ...s, name: `${side}_${s.name}` })));
  }
  const portrait = reads.map((x) => x.r.portrait).find((p) => p !== null) ?? null;
  const media: MediaInput[] = uploads.map(({ kind, contentType, data }) => ({ kind, contentType, data }));
  if (portrait) media.push({ kind: 'document_portrait', contentType: 'image/jpeg', data: portrait });
  return {
    outcome: {
      status: verdict,
      score: null,
      reasons: [...reasons],
      signals,
      model: [...new Map(reads.flatMap((x) => x.r.model).map((m) => [`${m.name}@${m.version}`, m])).values()],
      timings: roundTimings({ ...timings, total: performance.now() - started }),
      result: {
        ...documentResultBody(primary.r, primary.side),
        sides: Object.fromEntries(reads.map(({ side, r }) => [side, sideSummary(r)])),
        portrait_found: portrait !== null,
      },
    },
    media,
    fields: primary.r.fields,
    portrait,
  };
}

/** POST /v1/checks/document: decode, evaluate, store (recordCheck). */
export async function documentCheck({
  ctx,
  sealer,
  settings,
  resources,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  settings: DocumentSettings;
  resources: Resources;
  input: DocumentCheckBody;
}): Promise<Check> {
  const uploads: DocumentUpload[] = [
    {
      side: 'front',
      kind: 'document_front',
      ...decodeUpload('front', input.front, { maxBytes: settings.maxImageBytes, accept: IMAGE_TYPES }),
    },
  ];
  if (input.back !== undefined)
    uploads.push({
      side: 'back',
      kind: 'document_back',
      ...decodeUpload('back', input.back, { maxBytes: settings.maxImageBytes, accept: IMAGE_TYPES }),
    });
  const e = await evaluateDocument({
    ctx,
    settings,
    resources,
    uploads,
    rules: {
      ...(input.minimum_age !== undefined ? { minimumAge: input.minimum_age } : {}),
      ...(input.allowed_countries ? { allowedCountries: input.allowed_countries } : {}),
      ...(input.document_type ? { expectedDocumentTypes: [input.document_type] } : {}),
    },
  });
  return recordCheck({ ctx, sealer, type: 'document', subjectReference: input.subject_reference, outcome: e.outcome, media: e.media });
}

/** Germany is `D` in MRZs but DEU in ISO 3166; callers may give either. */
function withGermanyAliases(codes: string[]): string[] {
  const out = new Set(codes);
  if (out.has('DEU')) out.add('D');
  if (out.has('D')) out.add('DEU');
  return [...out];
}
