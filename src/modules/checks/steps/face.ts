import { Type } from '@sinclair/typebox';
import { CHALLENGE_ACTIONS, FACE_MATCH_THRESHOLD, challengeFrameCount, type ChallengeAction } from '../../../engines/face/index.js';
import { evaluateAge, evaluateFaceMatch, evaluateLiveness } from '../face/index.js';
import type { PipelineStep, StepResources, StepState } from '../check-type.js';
import { withoutEngine } from './outcomes.js';

const Threshold = (def: number, what: string) =>
  Type.Number({ minimum: 0, maximum: 1, default: def, description: `${what} (0 to 1; default ${def}).` });

export const livenessSettings = Type.Object(
  {
    threshold: Type.Optional(Threshold(0.5, 'Live score at or above which the capture passes')),
    challenge: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Active liveness: the hosted capture asks for a random sequence of head turns, a blink or an open mouth (POST /capture/v1/challenge) and records frames, judged by physical tests (a real head turns in depth, a print or screen is a plane). Without it, liveness is judged on the selfie alone (passive).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Media kind of frame `index` of a recorded liveness challenge (frame 0 is the neutral frame). */
export const challengeFrameKind = (index: number): string => `challenge_frame_${index}`;
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
  if (settings.challenge === true) return challengeStep(settings, st, res);
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

/** Liveness from the recorded challenge: the frames of the session's current challenge against its actions. */
async function challengeStep(settings: Record<string, unknown>, st: StepState, res: StepResources) {
  const actions = (st.challenge ?? []).filter((a): a is ChallengeAction => (CHALLENGE_ACTIONS as readonly string[]).includes(a));
  if (actions.length === 0 || actions.length !== st.challenge?.length)
    return withoutEngine('failed', 'capture_missing', 'No liveness challenge was recorded.');
  const frames = Array.from({ length: challengeFrameCount(actions.length) }, (_, i) => st.media.get(challengeFrameKind(i)));
  if (frames.some((f) => !f)) return withoutEngine('failed', 'capture_missing', 'The liveness challenge was not recorded in full.');
  st.used.set(
    'liveness',
    frames.map((f) => f!.id),
  );
  return evaluateLiveness(
    res.resources,
    frames.map((f) => f!.data),
    { threshold: settings.threshold as number | undefined, challenge: actions },
  );
}
