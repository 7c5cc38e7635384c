/**
 * The error code registry: every code a client can receive, its HTTP status and default message.
 * The spec fixes the first eight; later codes are additive and documented in docs/api-decisions.md.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, message: 'The request is not valid.' },
  unauthenticated: { status: 401, message: 'A valid API key is required: send Authorization: Bearer <key>.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this operation needs.' },
  not_found: { status: 404, message: 'The resource does not exist.' },
  conflict: { status: 409, message: 'The request conflicts with the current state of the resource.' },
  check_unavailable: { status: 422, message: 'The check cannot run on this input.' },
  rate_limited: { status: 429, message: 'Too many requests; retry after the time given in Retry-After.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. The request id identifies it in our logs.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly status: number;
  readonly field: string | null;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    opts: { field?: string | null; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message ?? ERROR_CODES[code].message, { cause: opts.cause });
    this.status = ERROR_CODES[code].status;
    this.field = opts.field ?? null;
    this.headers = opts.headers ?? {};
  }
}

export const invalid = (field: string, message: string) => new AppError('invalid_request', message, { field });
export const notFound = (what: string, field: string | null = null) =>
  new AppError('not_found', `No ${what} with that id exists.`, { field });
export const conflict = (message: string, field: string | null = null) => new AppError('conflict', message, { field });

export interface ErrorBody {
  error: { code: ErrorCode; message: string; field: string | null; request_id: string };
}

export function errorBody(code: ErrorCode, message: string, field: string | null, requestId: string): ErrorBody {
  return { error: { code, message, field, request_id: requestId } };
}

/** HTTP status → code, for framework errors that only carry a status. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'insufficient_scope';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 422) return 'check_unavailable';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_error';
  return 'invalid_request';
}
