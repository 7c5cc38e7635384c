import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../../platform/schemas.js';
import { checkBody, ImageField } from '../kernel/index.js';
import { FACE_DUPLICATE_THRESHOLD, MAX_LIVENESS_FRAMES } from '../../../engines/face/index.js';

export const LivenessBody = checkBody({
  image: Type.Optional(ImageField('One selfie. Give either image or frames.')),
  frames: Type.Optional(
    Type.Array(ImageField('One frame of a short capture burst, in capture order.'), { minItems: 1, maxItems: MAX_LIVENESS_FRAMES }),
  ),
  threshold: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: 'Combined live score at or above which the capture passes (default 0.5).' }),
  ),
});
export type LivenessBody = Static<typeof LivenessBody>;

export const FaceMatchBody = checkBody({
  selfie: ImageField('The selfie.'),
  reference: ImageField('The reference: a document image (its portrait is cropped) or another photo of the person.'),
  reference_type: Type.Optional(
    Type.Union([Type.Literal('document'), Type.Literal('selfie')], {
      description: 'document (default): the portrait is cut out of the document image; selfie: a plain photo.',
    }),
  ),
});
export type FaceMatchBody = Static<typeof FaceMatchBody>;

export const AgeEstimationBody = checkBody({
  image: ImageField('A live capture of the face.'),
  minimum_age: Type.Integer({ minimum: 1, maximum: 120, description: 'The age the person must at least be, e.g. 18.' }),
});
export type AgeEstimationBody = Static<typeof AgeEstimationBody>;

export const FaceSearchBody = checkBody({
  image: ImageField('The face to search for.'),
  k: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many enrolled faces to return, best first.' })),
  threshold: Type.Optional(
    Type.Number({
      minimum: 0.3,
      maximum: 0.99,
      description: `Cosine similarity at which another subject's face counts as the same person (default ${FACE_DUPLICATE_THRESHOLD}, calibrated for the face-api embedding: see docs/face.md).`,
    }),
  ),
});
export type FaceSearchBody = Static<typeof FaceSearchBody>;

export const EnrollmentBody = Type.Object(
  {
    image: ImageField('A photo with one clear face.'),
    subject_reference: Type.String({ minLength: 1, maxLength: 200, description: 'Your identifier of the customer the face belongs to.' }),
  },
  { additionalProperties: false },
);
export type EnrollmentBody = Static<typeof EnrollmentBody>;

export const FaceEnrollment = Type.Object({
  id: Type.String(),
  object: Type.Literal('face_enrollment'),
  subject_reference: Type.String(),
  model: Type.String({ description: 'The embedding model (name@version); faces enrolled under another model are not searched.' }),
  created_at: Timestamp,
  deleted_at: Type.Union([Timestamp, Type.Null()]),
});
export type FaceEnrollment = Static<typeof FaceEnrollment>;

export const EnrollmentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
