import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, codeForStatus, errorBody, ERROR_CODES, type ErrorCode } from '../errors.js';
import { failedReadingMultipart } from './multipart.js';
import { IdempotencyOutcome, outcomeError } from '../idempotency.js';

interface ValidationIssue {
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
  keyword?: string;
}

/** JSON pointer + the property a failing keyword names → "subject.country". */
export function fieldFromValidation(issue: ValidationIssue | undefined, context: string | undefined): string {
  if (!issue) return context ?? 'body';
  const parts = (issue.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (typeof extra === 'string') parts.push(extra);
  if (parts.length === 0) return context === 'body' || !context ? 'body' : context;
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

const FORMAT_TEXT: Record<string, string> = {
  'iso3166-alpha2': 'is not an ISO 3166-1 alpha-2 country code (such as DE or US)',
  country: 'is not a country this service knows (an ISO 3166-1 code or its English name)',
  'date-time': 'must be an ISO 8601 date and time (such as 2026-01-31T12:00:00Z)',
  date: 'must be a date as YYYY-MM-DD',
  uri: 'must be an absolute URL',
  email: 'must be an email address',
};

/** One sentence for the first failing keyword; a choice among literals lists the allowed values. */
export function describeValidation(issues: ValidationIssue[] | undefined, field: string): string {
  const issue = issues?.[0];
  if (!issue) return 'The request is not valid.';
  if (issue.keyword === 'required') return `${field} is required.`;
  if (issue.keyword === 'additionalProperties') return `${field} is not a known field.`;
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues))
    return `${field} must be one of: ${(issue.params.allowedValues as unknown[]).map(String).join(', ')}.`;
  if (issue.keyword === 'const') {
    // A union of literals fails one const per branch, then anyOf: gather the branches at this path.
    const allowed = (issues ?? [])
      .filter((i) => i.keyword === 'const' && i.instancePath === issue.instancePath)
      .map((i) => String(i.params?.allowedValue));
    return allowed.length > 1 ? `${field} must be one of: ${[...new Set(allowed)].join(', ')}.` : `${field} must be ${allowed[0]}.`;
  }
  if (issue.keyword === 'format' && typeof issue.params?.format === 'string' && FORMAT_TEXT[issue.params.format])
    return `${field} ${FORMAT_TEXT[issue.params.format]}.`;
  return `${field} ${issue.message ?? 'is not valid'}.`;
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  message: string,
  field: string | null,
  status: number = ERROR_CODES[code].status,
  headers: Record<string, string> = {},
) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message, field, request.id));
}

function sendErrorOf(reply: FastifyReply, request: FastifyRequest, err: AppError) {
  return sendError(reply, request, err.code, err.message, err.field, err.status, err.headers);
}

/** The stored response of an Idempotency-Key, as it was first answered. */
export function sendReplay(reply: FastifyReply, stored: { status: number; body: string }) {
  return reply.code(stored.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(stored.body);
}

/**
 * One handler for every failure: AppError as it is, validation errors with the failing field,
 * framework errors by status, and anything unknown as internal_error with nothing internal leaked.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: FastifyError | AppError | IdempotencyOutcome, request, reply) => {
    // A key claimed in the mutation's transaction: taken there, or already used when the handler failed before it.
    const taken =
      thrown instanceof IdempotencyOutcome ? thrown.outcome : await request.ctx?.idempotency?.afterFailure?.(thrown).catch(() => null);
    if (taken) return taken.kind === 'replay' ? sendReplay(reply, taken) : sendErrorOf(reply, request, outcomeError(taken));
    const err = thrown as FastifyError | AppError;
    if (err instanceof AppError) return sendErrorOf(reply, request, err);
    const fe = err as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
    if (fe.validation) {
      const issue = fe.validation[0];
      const field = fieldFromValidation(issue, fe.validationContext);
      return sendError(reply, request, 'invalid_request', describeValidation(fe.validation, field), field);
    }
    const status = fe.statusCode ?? 500;
    if (status >= 500 && failedReadingMultipart(request)) {
      return sendError(reply, request, 'invalid_request', `The multipart body could not be read: ${err.message}.`, 'body', 400);
    }
    if (status >= 500) {
      request.log.error({ err, request_id: request.id }, 'unhandled error');
      return sendError(reply, request, 'internal_error', ERROR_CODES.internal_error.message, null);
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(
          reply,
          request,
          'invalid_request',
          'Content-Type must be application/json (or multipart/form-data where an endpoint accepts files).',
          'Content-Type',
          400,
        );
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_FILES_LIMIT':
      case 'FST_FIELDS_LIMIT':
      case 'FST_PARTS_LIMIT':
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, request, 'invalid_request', 'The request body is larger than this service accepts.', 'body', 400);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(
          reply,
          request,
          'invalid_request',
          'The body is empty but Content-Type says JSON; send a JSON object.',
          'body',
          400,
        );
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      case 'FST_MULTIPART_INVALID_CONTENT_TYPE':
        return sendError(reply, request, 'invalid_request', 'The multipart body could not be read.', 'body', 400);
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, request, 'invalid_request', 'The body is not valid JSON.', 'body', 400);
      default:
        if (err instanceof SyntaxError) return sendError(reply, request, 'invalid_request', 'The body is not valid JSON.', 'body', 400);
    }
    const code = codeForStatus(status);
    const mapped = ERROR_CODES[code].status;
    return sendError(
      reply,
      request,
      code,
      code === 'invalid_request' ? 'The request is not valid.' : ERROR_CODES[code].message,
      null,
      mapped,
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      request,
      'not_found',
      `No route ${request.method} ${request.url.split('?')[0]}. See /docs for the API reference.`,
      null,
    ),
  );
}
