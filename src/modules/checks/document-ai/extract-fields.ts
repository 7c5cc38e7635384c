import type { TextChecks } from '../proof-of-address/index.js';
import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import { invalid } from '../../../platform/errors.js';
import { DocumentAiInputError, validateFieldSpecs, type DocumentAiResult, type FieldSpec } from '../../../engines/document-ai/index.js';
import { decodeUpload, recordCheck, type Check } from '../kernel/index.js';
import { documentInputError, DOCUMENT_MEDIA, MAX_DOCUMENT_BYTES } from '../proof-of-address/index.js';
import type { DocumentAiBody } from './schemas.js';

function specError(err: unknown): never {
  if (err instanceof DocumentAiInputError) throw invalid(err.field, `${err.field}: ${err.message}`);
  return documentInputError(err);
}

/**
 * Document AI: the caller's field specs are validated first (cheap, and the error names the exact
 * spec), then the upload, then the engine runs outside any transaction and recordCheck stores it.
 */
export async function runDocumentAi(args: {
  ctx: RequestContext;
  sealer: Sealer;
  text: TextChecks;
  input: DocumentAiBody;
}): Promise<Check> {
  const { input } = args;
  const specs = input.fields as FieldSpec[];
  try {
    validateFieldSpecs(specs);
  } catch (err) {
    specError(err);
  }
  const upload = decodeUpload('document', input.document, { maxBytes: MAX_DOCUMENT_BYTES, accept: DOCUMENT_MEDIA });
  // In the text-documents worker: a hostile PDF stalls that thread for a bounded time, never the event loop.
  const r = await args.text.documentAi(upload.data, specs, { mime: upload.contentType, country: input.country }).catch(specError);
  return recordCheck({
    ctx: args.ctx,
    sealer: args.sealer,
    type: 'document_ai',
    subjectReference: input.subject_reference,
    outcome: {
      status: r.verdict,
      score: extractionScore(r),
      reasons: r.reasons,
      signals: r.tampering,
      model: [r.model],
      timings: { extract: r.timings.extractMs, fields: r.timings.fieldsMs, tamper: r.timings.tamperMs, total: r.timings.totalMs },
      result: {
        fields: r.fields.map((f) => ({
          name: f.name,
          type: f.type,
          value: f.value,
          normalized: f.normalized,
          valid: f.valid,
          confidence: f.confidence,
          method: f.method,
          page: f.page,
          box: f.box,
          relative_box: f.relativeBox,
        })),
        tampering: r.tampering,
        tampered: r.tampering.some((t) => t.passed === false),
        text_source: r.textSource,
        page_count: r.pageCount,
      },
    },
    media: [{ kind: 'document', contentType: upload.contentType, data: upload.data }],
  });
}

/** Mean field confidence (a field not found counts 0): how much of the request was answered, and how surely. */
function extractionScore(r: DocumentAiResult): number {
  if (r.fields.length === 0) return 0;
  return Math.round((r.fields.reduce((s, f) => s + f.confidence, 0) / r.fields.length) * 1000) / 1000;
}
