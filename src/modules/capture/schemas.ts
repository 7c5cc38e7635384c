import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { DOCUMENT_TYPES } from '../checks/index.js';
import { CHALLENGE_ACTIONS, MAX_CHALLENGE_FRAMES } from '../../engines/face/index.js';

/** A string enum (one `enum` in the OpenAPI document, the literal union as its type). */
const lit = <T extends string>(xs: readonly T[], opts: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...xs], ...opts });

/** What the subject uploads with PUT /media/{kind}; each kind is also the `kind` of the stored media row. */
export const UPLOAD_KINDS = ['document_front', 'document_back', 'selfie', 'proof_of_address'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
/** Steps: the uploads, and the liveness challenge (its frames go to PUT /challenge/frames/{index}). */
export const STEP_KINDS = [...UPLOAD_KINDS, 'liveness_challenge'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * Quality guidance codes, with the plain-words message the subject sees. Published (OpenAPI enum,
 * docs/capture.md): SDKs key their own wording on the code.
 */
export const QUALITY_ISSUES = {
  blurry: 'The photo is blurry or the document is too small in it. Hold the camera steady, fill the frame and make sure the text is sharp.',
  glare: 'There is glare on the document. Tilt it away from the light or turn off the flash, then try again.',
  too_dark: 'The photo is too dark. Move somewhere brighter and try again.',
  no_document: 'We could not find an identity document in this photo. Place the whole document in the frame.',
  wrong_document: 'This document is not one we can accept here. Use one of the document types listed.',
  unreadable:
    'We could not read the document. Make sure all of it, including the lines of characters at the bottom, is in the frame and not covered.',
  no_face: 'We could not find a face. Look straight at the camera with your face fully visible.',
  multiple_faces: 'More than one face is in the photo. Make sure only you are in the picture.',
  face_too_small: 'Your face is too small in the photo. Move closer to the camera.',
} as const;
export type QualityIssueCode = keyof typeof QUALITY_ISSUES;
export const QUALITY_ISSUE_CODES = Object.keys(QUALITY_ISSUES) as QualityIssueCode[];

export const Quality = Type.Object(
  {
    acceptable: Type.Boolean({ description: 'true when no issue was found. Guidance only: submission does not require it.' }),
    issues: Type.Array(
      Type.Object({ code: lit(QUALITY_ISSUE_CODES, { description: 'Stable code; see docs/capture.md.' }), message: Type.String() }),
    ),
  },
  { description: 'Guidance on the upload from the real engines (document reader, face engine); never a check result.' },
);
export type Quality = Static<typeof Quality>;

/** Statuses the subject sees: a decision is never shown, only that the work is complete. */
export const SUBJECT_SESSION_STATUSES = ['awaiting_subject', 'processing', 'complete', 'expired', 'abandoned'] as const;
export const SUBJECT_CHECK_STATUSES = ['pending', 'processing', 'complete'] as const;

export const CaptureSession = Type.Object({
  id: Type.String(),
  status: lit(SUBJECT_SESSION_STATUSES, {
    description: 'approved, declined and referred all read as complete: the subject never sees the decision.',
  }),
  journey: Type.String(),
  expires_at: Timestamp,
  redirect_url: Type.Union([Type.String(), Type.Null()]),
  steps: Type.Array(
    Type.Object({
      kind: lit(STEP_KINDS),
      required: Type.Boolean(),
      description: Type.String(),
      captured: Type.Boolean(),
      quality: Type.Union([Quality, Type.Null()], {
        description: 'Guidance on the current upload of this step; null when nothing is captured.',
      }),
    }),
  ),
  accepted_document_types: Type.Array(lit(DOCUMENT_TYPES), { description: 'Empty when the journey has no document check.' }),
  accepted_countries: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'Issuing countries accepted (ISO alpha-2); null: any.',
  }),
  max_upload_bytes: Type.Integer({ description: 'Largest file PUT /capture/v1/media/{kind} accepts.' }),
  checks: Type.Array(Type.Object({ type: Type.String(), status: lit(SUBJECT_CHECK_STATUSES) })),
});
export type CaptureSession = Static<typeof CaptureSession>;

export const MediaParams = Type.Object({ kind: lit(UPLOAD_KINDS) });

export const UploadedMedia = Type.Object({
  kind: lit(UPLOAD_KINDS),
  media_id: Type.String(),
  bytes: Type.Integer(),
  content_type: Type.String({ description: 'Sniffed from the bytes; the Content-Type header is not trusted.' }),
  sha256: Type.String(),
  quality: Quality,
});
export type UploadedMedia = Static<typeof UploadedMedia>;

export const SubmittedCapture = Type.Object({ id: Type.String(), status: Type.Literal('processing') });

export const LivenessChallenge = Type.Object({
  challenge_id: Type.String(),
  actions: Type.Array(lit(CHALLENGE_ACTIONS), {
    description: 'What to ask the subject, in order. Chosen at random by the server for this session; the frames are judged against it.',
  }),
  frames_per_action: Type.Integer({ description: 'Frames to record while each action is asked, spread over about 1.5 s.' }),
  frame_count: Type.Integer({
    description: 'Frames to upload: index 0 is the neutral frame (looking straight), then frames_per_action per action in order.',
  }),
  expires_at: Timestamp,
});
export type LivenessChallenge = Static<typeof LivenessChallenge>;

export const ChallengeFrameParams = Type.Object({ index: Type.Integer({ minimum: 0, maximum: MAX_CHALLENGE_FRAMES - 1 }) });

export const UploadedFrame = Type.Object({
  challenge_id: Type.String(),
  index: Type.Integer(),
  media_id: Type.String(),
  bytes: Type.Integer(),
  content_type: Type.String(),
  sha256: Type.String(),
});
export type UploadedFrame = Static<typeof UploadedFrame>;
