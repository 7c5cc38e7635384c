import type { LoggerOptions } from 'pino';

/**
 * Log redaction: API keys, session tokens, webhook secrets and personal data never reach the log.
 * Bodies are not logged at all; these paths cover what handlers log explicitly.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-token"]',
  'headers.authorization',
  '*.key',
  '*.secret',
  '*.signing_secret',
  '*.session_token',
  '*.password',
  '*.master_key',
  '*.name',
  '*.date_of_birth',
  '*.email',
  '*.phone',
  '*.address',
  '*.document_number',
  'body',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'verity' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    serializers: {
      req: (req: { id: string; method: string; url: string; routeOptions?: { url?: string } }) => ({
        id: req.id,
        method: req.method,
        // The query string may carry personal data (filters), so only the path is logged.
        url: req.url.split('?')[0],
      }),
    },
  };
}
