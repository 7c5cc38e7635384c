import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { invalid } from '../../../platform/errors.js';
import type { PoaResult } from '../../../engines/proof-of-address/index.js';
import type { TextChecks } from './text-checks.js';
import { TextInputError } from '../../../engines/text/index.js';
import { decodeUpload, recordCheck, type CheckOutcome, type Check } from '../kernel/index.js';
import { DOCUMENT_MEDIA, MAX_DOCUMENT_BYTES, type ProofOfAddressBody } from './schemas.js';

/** The engine's bad-input errors are the caller's fault: 400 naming the upload, never a 5xx. */
export function documentInputError(err: unknown, field = 'document'): never {
  if (err instanceof TextInputError) throw invalid(field, `${field}: ${err.message} (${err.code})`);
  throw err;
}

/**
 * Proof of address: decode the upload, run the engine outside any transaction, then store the
 * check with its sealed result and media, billed once (recordCheck).
 */
export async function runProofOfAddress(args: {
  ctx: RequestContext;
  sealer: Sealer;
  text: TextChecks;
  input: ProofOfAddressBody;
  now?: Date;
}): Promise<Check> {
  const { input } = args;
  const upload = decodeUpload('document', input.document, { maxBytes: MAX_DOCUMENT_BYTES, accept: DOCUMENT_MEDIA });
  const outcome = await evaluateProofOfAddress(upload.data, upload.contentType, {
    subjectName: input.subject_name,
    country: input.country,
    maxAgeDays: input.max_age_days ?? 90,
    now: args.now,
    text: args.text,
  });
  return recordCheck({
    ctx: args.ctx,
    sealer: args.sealer,
    type: 'proof_of_address',
    subjectReference: input.subject_reference,
    outcome,
    media: [{ kind: 'document', contentType: upload.contentType, data: upload.data }],
  });
}

/** The proof-of-address engine's verdict as a check outcome (standalone check and session pipeline). */
export async function evaluateProofOfAddress(
  data: Buffer,
  mime: string,
  o: { subjectName: string; country?: string | undefined; maxAgeDays: number; now?: Date | undefined; text: TextChecks },
): Promise<CheckOutcome> {
  // In the text-documents worker: a hostile PDF stalls that thread for a bounded time, never the event loop.
  const r = await o.text
    .proofOfAddress(data, { subjectName: o.subjectName, country: o.country, maxAgeDays: o.maxAgeDays, now: o.now, mime })
    .catch((err: unknown) => documentInputError(err));
  return {
    status: r.verdict,
    score: r.confidence,
    reasons: r.reasons,
    signals: [...r.validations, ...r.tampering],
    model: [r.model],
    timings: { extract: r.timings.extractMs, analyse: r.timings.analyseMs, tamper: r.timings.tamperMs, total: r.timings.totalMs },
    result: poaResult(r),
  };
}

/** The engine's result in the API's snake_case, with where on the page each field was read. */
function poaResult(r: PoaResult): Record<string, unknown> {
  const d = r.fieldDetails;
  return {
    document_class: r.documentClass,
    confidence: r.confidence,
    classification: {
      class: r.classification.class,
      confidence: r.classification.confidence,
      probabilities: r.classification.probabilities,
      features: r.classification.features,
    },
    fields: {
      name: r.fields.name,
      address: r.fields.address,
      issue_date: r.fields.issueDate,
      country: r.fields.country,
    },
    field_details: {
      name: d.name ? { confidence: d.name.confidence, source: d.name.source, box: d.name.box } : null,
      address: d.address
        ? {
            confidence: d.address.confidence,
            source: d.address.source,
            country_source: d.address.countrySource ?? null,
            box: d.address.box,
          }
        : null,
      issue_date: d.issueDate
        ? { text: d.issueDate.text, confidence: d.issueDate.confidence, source: d.issueDate.source, box: d.issueDate.box }
        : null,
    },
    validations: r.validations,
    tampering: r.tampering,
    text_source: r.textSource,
  };
}
