// Framework-free TRP receiver: header checks (as TRISA's APIChecks middleware) then the body parser for the
// message the route expects. The HTTP module maps the result onto its routes and writes the response.
import type { MessageAction } from '../../engines/travel-rule/index.js';
import {
  parseConfirmation,
  parseInquiry,
  parseResolution,
  TRP_API_VERSION,
  TRP_HEADERS,
  type TrpConfirmation,
  type TrpError,
  type TrpInquiry,
  type TrpResolution,
} from './trp.js';

export type TrpInboundKind = 'inquiry' | 'resolution' | 'confirmation';

export interface TrpInbound {
  /** Header names in any case; a repeated header may be given joined with commas. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text (or an already parsed JSON value). */
  body: unknown;
}

export type TrpHandled =
  | {
      ok: true;
      requestIdentifier: string;
      message:
        | { kind: 'inquiry'; inquiry: TrpInquiry }
        | { kind: 'resolution'; resolution: TrpResolution }
        | { kind: 'confirmation'; confirmation: TrpConfirmation };
      /** Normalisations and lenient-profile findings a reviewer should see. */
      warnings: string[];
      /** Headers to put on the response (api-version, the echoed request-identifier). */
      responseHeaders: Record<string, string>;
    }
  | { ok: false; error: TrpError; responseHeaders: Record<string, string> };

function header(h: TrpInbound['headers'], name: string): string | undefined {
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(',') : v;
  }
  return undefined;
}

/**
 * Validate an inbound TRP request for the given message kind. TRISA insists on api-version 3.1.0 exactly;
 * we accept any 3.x.y because peers in the fixtures answer 3.2.1 and minor versions stay compatible.
 */
export function handleTrpRequest(kind: TrpInboundKind, req: TrpInbound): TrpHandled {
  const responseHeaders: Record<string, string> = { [TRP_HEADERS.apiVersion]: TRP_API_VERSION };
  const refuse = (error: TrpError): TrpHandled => ({ ok: false, error, responseHeaders });

  const version = header(req.headers, TRP_HEADERS.apiVersion);
  if (version === undefined || !/^3\.\d+\.\d+$/.test(version.trim())) {
    return refuse({ status: 400, message: `must specify api version header ${TRP_API_VERSION}` });
  }
  const requestIdentifier = header(req.headers, TRP_HEADERS.requestIdentifier)?.trim();
  if (!requestIdentifier) return refuse({ status: 400, message: 'must specify request identifier header' });
  responseHeaders[TRP_HEADERS.requestIdentifier] = requestIdentifier;

  const contentType = header(req.headers, TRP_HEADERS.contentType);
  if (contentType !== undefined && contentType.split(';')[0]!.trim().toLowerCase() !== 'application/json') {
    return refuse({ status: 415, message: 'content-type header must be application/json' });
  }

  if (kind === 'inquiry') {
    const p = parseInquiry(req.body);
    if (!p.ok) return refuse(p.error);
    return { ok: true, requestIdentifier, message: { kind, inquiry: p.value }, warnings: p.warnings, responseHeaders };
  }
  if (kind === 'resolution') {
    const p = parseResolution(req.body);
    if (!p.ok) return refuse(p.error);
    return { ok: true, requestIdentifier, message: { kind, resolution: p.value }, warnings: p.warnings, responseHeaders };
  }
  const p = parseConfirmation(req.body);
  if (!p.ok) return refuse(p.error);
  return { ok: true, requestIdentifier, message: { kind, confirmation: p.value }, warnings: p.warnings, responseHeaders };
}

/** The kind of message our default inbound routes expect: …/resolve, …/confirm, anything else an inquiry. */
export function classifyTrpPath(path: string): TrpInboundKind {
  const p = path.split('?')[0]!.replace(/\/+$/, '');
  if (p.endsWith('/resolve')) return 'resolution';
  if (p.endsWith('/confirm')) return 'confirmation';
  return 'inquiry';
}

/**
 * The lifecycle action a received TRP message applies to its Travel Rule message: an inquiry creates an
 * incoming one (receive), a resolution or confirmation moves an existing one. An acknowledgement moves nothing.
 */
export function actionForTrpMessage(message: Extract<TrpHandled, { ok: true }>['message']): MessageAction | undefined {
  if (message.kind === 'inquiry') return 'receive';
  if (message.kind === 'resolution') {
    const r = message.resolution;
    return r.kind === 'approved' ? 'accept' : r.kind === 'rejected' ? 'reject' : undefined;
  }
  return message.confirmation.kind === 'txid' ? 'confirm' : 'cancel';
}
