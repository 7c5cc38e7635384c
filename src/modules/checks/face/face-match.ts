import { signal, type Signal } from '../../../engines/signal.js';
import { recordCheck, roundTimings, type CheckOutcome, type Check } from '../kernel/index.js';
import { DOCUMENT_READER } from '../document/index.js';
import { FACE_ENGINE } from './engine.js';
import type { Resources } from '../../../platform/resources.js';
import { decodeImage, engineCall, reasonsOf, round4, toInputError } from './inputs.js';
import type { FaceCheckArgs } from './check-args.js';
import type { FaceMatchBody } from './schemas.js';

/**
 * 1:1 selfie against a reference. For a document, the ICAO portrait zone is cut out first (located
 * from the MRZ), so the face engine compares against the holder's portrait and not the ghost image
 * or a background face; without a readable MRZ the whole image is used and the signal says so.
 */
export async function faceMatchCheck({ ctx, sealer, settings, resources, input }: FaceCheckArgs<FaceMatchBody>): Promise<Check> {
  const selfie = decodeImage('selfie', input.selfie, 'selfie', settings.maxImageBytes);
  const isDocument = (input.reference_type ?? 'document') === 'document';
  const reference = decodeImage('reference', input.reference, isDocument ? 'document_front' : 'reference', settings.maxImageBytes);
  const outcome = await evaluateFaceMatch({ resources, selfie: selfie.data, reference: reference.data, referenceIsDocument: isDocument });
  return recordCheck({
    ctx,
    sealer,
    type: 'face_match',
    subjectReference: input.subject_reference,
    outcome,
    media: [selfie, reference],
  });
}

/**
 * The face engine's 1:1 comparison as a check outcome (standalone check and session pipeline). A
 * document reference has its portrait zone cut out first unless the caller already has the crop.
 */
export async function evaluateFaceMatch(o: {
  resources: Resources;
  selfie: Buffer;
  reference: Buffer;
  referenceIsDocument: boolean;
  portrait?: Buffer | null;
  threshold?: number;
}): Promise<CheckOutcome> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const extra: Signal[] = [];
  let compared: Buffer = o.reference;
  if (o.referenceIsDocument) {
    let portrait = o.portrait ?? null;
    if (o.portrait === undefined) {
      const cropStarted = performance.now();
      portrait = await o.resources
        .get(DOCUMENT_READER)
        .cropPortrait(o.reference)
        .catch((err: unknown) => {
          throw toInputError(err, undefined, 'reference') ?? err;
        });
      timings.portrait_crop = performance.now() - cropStarted;
    }
    if (portrait) compared = portrait;
    extra.push(
      signal('reference_portrait_cropped', portrait !== null, null, {
        detail: portrait
          ? 'The portrait zone was located on the document (from its MRZ, or from its edges on a straightened page) and compared.'
          : 'No portrait zone could be located (no readable MRZ and no page outline, or a TD1 card front); the whole image was compared.',
      }),
    );
  }
  const r = await engineCall(() =>
    o.resources.get(FACE_ENGINE).match(o.selfie, compared, {
      referenceIsDocument: o.referenceIsDocument,
      ...(o.threshold !== undefined ? { threshold: o.threshold } : {}),
    }),
  );
  const signals = [...extra, ...r.signals];
  return {
    status: r.verdict,
    score: round4(r.similarity),
    reasons: reasonsOf(r.verdict, signals),
    signals,
    model: r.model,
    timings: roundTimings({ ...timings, engine: r.timings.totalMs, total: performance.now() - started }),
    result: {
      similarity: round4(r.similarity),
      threshold: r.threshold,
      match: r.verdict === 'passed',
      reference_type: o.referenceIsDocument ? 'document' : 'selfie',
    },
  };
}
