import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SwaggerTransform } from '@fastify/swagger';
import type { ModuleOptions } from '../../platform/app-types.js';
import { AppError } from '../../platform/errors.js';
import { Type } from '@sinclair/typebox';
import type { DocumentSettings } from '../checks/index.js';
import { registerCaptureAuth } from './auth.js';
import {
  CaptureSession,
  ChallengeFrameParams,
  LivenessChallenge,
  MediaParams,
  QUALITY_ISSUE_CODES,
  SubmittedCapture,
  UPLOAD_KINDS,
  UploadedFrame,
  UploadedMedia,
  type UploadKind,
} from './schemas.js';
import { issueChallenge, uploadChallengeFrame } from './liveness-challenge.js';
import { captureSessionView } from './session-view.js';
import { submitCaptureSession } from './submit-capture.js';
import { tooLarge, uploadCaptureMedia } from './upload-media.js';
import { OPERATION_DOCS } from './operation-docs.js';

export const CAPTURE_TAG = 'Capture (session token)';
const errors = (codes: number[]) => Object.fromEntries(codes.map((c) => [c, Type.Ref('Error')]));

/**
 * The capture routes' OpenAPI entries: their own tag and bearer scheme (the session token, not an
 * API key). The platform's document names only the API-key scheme, so the scheme is added here.
 */
const captureDoc: SwaggerTransform = ({ schema, url, ...doc }) => {
  if ('openapiObject' in doc) {
    const o = doc.openapiObject as {
      components?: { securitySchemes?: Record<string, unknown> };
      tags?: { name: string; description?: string }[];
    };
    o.components = {
      ...o.components,
      securitySchemes: {
        ...o.components?.securitySchemes,
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The session_token (vst_…) returned by POST /v1/verifications, held by the subject's browser or your client SDK. Opens only its own session's capture routes; API keys are refused here and session tokens are refused on /v1.",
        },
      },
    };
    const description =
      "Called from the subject's device (the hosted page or a client SDK) with the session token. CORS allows any origin. See docs/capture.md.";
    const tag = o.tags?.find((t) => t.name === CAPTURE_TAG);
    if (tag) tag.description = description;
    else o.tags = [...(o.tags ?? []), { name: CAPTURE_TAG, description }];
  }
  return { schema: { ...schema, security: [{ sessionToken: [] }] } as typeof schema, url };
};

/** Capture API for the hosted page and client SDKs: outside /v1, authenticated by the session token. */
export const captureModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const documents = opts.deps.config.checks.document;
  const capture = opts.deps.config.capture;
  registerCaptureAuth(app, { db: opts.deps.db, rateLimiter: opts.deps.rateLimiter, ratePerMinute: capture.ratePerMinute });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = [CAPTURE_TAG];
  const config = { public: true, swaggerTransform: captureDoc };

  // CORS preflight: answered without a token (browsers never send credentials on it).
  r.options('/*', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => reply.code(204).send());

  r.get(
    '/session',
    {
      config,
      schema: {
        tags,
        operationId: 'getCaptureSession',
        summary: 'The session as its subject sees it: steps to capture, progress, accepted documents',
        description: OPERATION_DOCS.getCaptureSession,
        response: { 200: CaptureSession, ...errors([401, 429, 500]) },
      },
    },
    async (req) => {
      const view = await captureSessionView(req.ctx.db, req.ctx, req.captureSession!.id, documents.maxImageBytes);
      if (!view) throw new AppError('unauthenticated', 'The session token is not valid.');
      return view;
    },
  );

  await app.register(async (media: FastifyInstance) => registerMediaRoute(media, opts, documents), {});

  r.post(
    '/challenge',
    {
      config,
      schema: {
        tags,
        operationId: 'issueLivenessChallenge',
        summary: 'Start the active liveness challenge: a random sequence of actions to ask for, chosen by the server',
        description:
          'Replaces any earlier challenge of the session and retires its frames. Record frame 0 with the subject looking straight, then frames_per_action frames while each action is shown, and upload them with PUT /capture/v1/challenge/frames/{index} before expires_at. Only for journeys whose liveness check has challenge: true (400 on field liveness_challenge otherwise).',
        response: { 201: LivenessChallenge, ...errors([400, 401, 409, 429, 500]) },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return issueChallenge({ ctx: req.ctx, sessionId: req.captureSession!.id });
    },
  );

  r.post(
    '/submit',
    {
      config,
      schema: {
        tags,
        operationId: 'submitCapture',
        summary: 'Finish capture: the session moves to processing and its checks start',
        description: OPERATION_DOCS.submitCapture,
        response: { 202: SubmittedCapture, ...errors([400, 401, 409, 429, 500]) },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return submitCaptureSession({ ctx: req.ctx, sessionId: req.captureSession!.id });
    },
  );
};

const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf', 'application/octet-stream'];

/** PUT /media/:kind in its own scope: its raw-body parser applies to it alone. */
function registerMediaRoute(app: FastifyInstance, opts: ModuleOptions, settings: DocumentSettings): void {
  const limit = settings.maxImageBytes;
  app.removeAllContentTypeParsers();
  // The body is the file itself, whatever Content-Type says (the bytes are sniffed); read up to the limit.
  app.addContentTypeParser('*', (req, payload, done) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) {
      payload.resume();
      return done(tooLarge(limit), undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    payload.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        done(tooLarge(limit), undefined);
      } else chunks.push(chunk);
    });
    payload.on('end', () => {
      if (!over) done(null, Buffer.concat(chunks, size));
    });
    payload.on('error', (err) => {
      if (!over) done(err, undefined);
    });
  });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.put(
    '/media/:kind',
    {
      config: {
        public: true,
        swaggerTransform: (arg) => {
          const out = captureDoc(arg);
          const content = Object.fromEntries(UPLOAD_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]));
          return {
            ...out,
            schema: { ...out.schema, body: { description: 'The file itself as the raw body.', content } } as typeof out.schema,
          };
        },
      },
      schema: {
        tags: [CAPTURE_TAG],
        operationId: 'uploadCaptureMedia',
        summary: 'Upload one capture (document side, selfie or proof of address) as the raw body',
        description: `kind is one of ${UPLOAD_KINDS.join(', ')} (the session's steps). JPEG, PNG, WebP or HEIC images; proof_of_address also PDF. The type is read from the bytes, not Content-Type. At most ${limit} bytes (400 on field file). A new upload of a kind replaces the previous one. The quality object is guidance from the engines: issue codes ${QUALITY_ISSUE_CODES.join(', ')}.`,
        params: MediaParams,
        response: { 201: UploadedMedia, ...errors([400, 401, 409, 429, 500]) },
      },
    },
    async (req, reply) => {
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const out = await uploadCaptureMedia({
        ctx: req.ctx,
        sealer: opts.deps.sealer,
        settings,
        resources: opts.deps.resources,
        sessionId: req.captureSession!.id,
        kind: (req.params as { kind: UploadKind }).kind,
        data,
      });
      reply.code(201);
      return out;
    },
  );
  r.put(
    '/challenge/frames/:index',
    {
      config: {
        public: true,
        swaggerTransform: (arg) => {
          const out = captureDoc(arg);
          const content = Object.fromEntries(
            ['image/jpeg', 'image/png', 'image/webp'].map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
          );
          return {
            ...out,
            schema: { ...out.schema, body: { description: 'The frame image as the raw body.', content } } as typeof out.schema,
          };
        },
      },
      schema: {
        tags: [CAPTURE_TAG],
        operationId: 'uploadChallengeFrame',
        summary: 'Upload one frame of the current liveness challenge as the raw body',
        description: `index 0 is the neutral frame, then frames_per_action frames per action in the order of POST /capture/v1/challenge. A JPEG, PNG, WebP or HEIC image of at most ${limit} bytes (400 on field file). 409 when no challenge was requested or it has expired (request a new one). A re-upload of an index replaces it.`,
        params: ChallengeFrameParams,
        response: { 201: UploadedFrame, ...errors([400, 401, 409, 429, 500]) },
      },
    },
    async (req, reply) => {
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const out = await uploadChallengeFrame({
        ctx: req.ctx,
        sealer: opts.deps.sealer,
        maxBytes: limit,
        sessionId: req.captureSession!.id,
        index: (req.params as { index: number }).index,
        data,
      });
      reply.code(201);
      return out;
    },
  );
}
