import { Type } from '@sinclair/typebox';
import { FACE_MATCH_THRESHOLD } from '../../../engines/face/index.js';
import { evaluateAge, evaluateFaceMatch, evaluateLiveness } from '../face/index.js';
import type { PipelineStep, StepState } from '../check-type.js';
import { withoutEngine } from './outcomes.js';

const Threshold = (def: number, what: string) =>
  Type.Number({ minimum: 0, maximum: 1, default: def, description: `${what} (0 to 1; default ${def}).` });

export const livenessSettings = Type.Object(
  { threshold: Type.Optional(Threshold(0.5, 'Live score at or above which the capture passes')) },
  { additionalProperties: false },
);
export const faceMatchSettings = Type.Object(
  {
    threshold: Type.Optional(
      Threshold(FACE_MATCH_THRESHOLD, 'Cosine similarity (face-api recognition net) at or above which the selfie matches the portrait'),
    ),
  },
  { additionalProperties: false },
);
export const ageSettings = Type.Object(
  { minimum_age: Type.Optional(Type.Integer({ minimum: 13, maximum: 100, default: 18 })) },
  { additionalProperties: false },
);

const selfie = (st: StepState) => st.media.get('selfie');

export const livenessStep: PipelineStep = async (settings, st, res) => {
  const s = selfie(st);
  if (!s) return withoutEngine('failed', 'capture_missing', 'No selfie was captured.');
  st.used.set('liveness', [s.id]);
  return evaluateLiveness(res.resources, [s.data], { threshold: settings.threshold as number | undefined });
};

export const faceMatchStep: PipelineStep = async (settings, st, res) => {
  const s = selfie(st);
  const front = st.media.get('document_front');
  if (!s || !front)
    return withoutEngine(
      'failed',
      'capture_missing',
      !s ? 'No selfie was captured.' : 'No document was captured to compare the selfie with.',
    );
  st.used.set('face_match', [s.id, front.id]);
  // The document step already cut the portrait out; without a document step the crop runs here.
  const portrait = st.used.has('document') ? st.portrait : undefined;
  return evaluateFaceMatch({
    resources: res.resources,
    selfie: s.data,
    reference: front.data,
    referenceIsDocument: true,
    portrait,
    threshold: settings.threshold as number | undefined,
  });
};

export const ageStep: PipelineStep = async (settings, st, res) => {
  const s = selfie(st);
  if (!s) return withoutEngine('failed', 'capture_missing', 'No selfie was captured.');
  st.used.set('age_estimation', [s.id]);
  return evaluateAge(res.resources, s.data, (settings.minimum_age as number | undefined) ?? 18);
};
