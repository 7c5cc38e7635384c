// OpenVASP Travel Rule Protocol v3 messages as pure functions: build what we send, parse what we get.
// Shapes follow the TRP specification as implemented by TRISA (pkg/openvasp/trp.go, trp/v3) and the
// fixtures in shared/data/travel_rule/trisa_openvasp_trp. The raw wire shapes stay in this folder;
// callers see TrpInquiry / TrpResolution / TrpConfirmation with amounts as decimal strings.
import { randomUUID } from 'node:crypto';
import { normalizeIvms101, rejectCode, validateIvms101, type IdentityPayload, type Ivms101Issue } from '../../engines/travel-rule/index.js';

export const TRP_API_VERSION = '3.1.0';
export const TRP_HEADERS = {
  apiVersion: 'api-version',
  apiExtensions: 'api-extensions',
  requestIdentifier: 'request-identifier',
  contentType: 'content-type',
} as const;
export const TRP_CONTENT_TYPE = 'application/json; charset=utf-8';

/** DTI (ISO 24165) or SLIP-0044 coin type; TRP needs one of the two. */
export interface TrpAsset {
  dti?: string;
  slip0044?: string | number;
}

export interface TrpInquiry {
  asset: TrpAsset;
  /** Decimal string in the asset's unit; on the wire a JSON number written digit for digit. */
  amount: string;
  callback: string;
  ivms101: IdentityPayload;
  extensions?: Record<string, unknown>;
}

export type TrpResolution =
  | { kind: 'approved'; address: string; callback: string }
  | { kind: 'rejected'; comment: string }
  /** A synchronous answer to an inquiry meaning "received; the decision comes to your callback". */
  | { kind: 'acknowledged'; version: string };

export type TrpConfirmation = { kind: 'txid'; txid: string } | { kind: 'canceled'; comment: string };

/** A protocol-level refusal: the HTTP status the receiver answers with and a human-readable message. */
export interface TrpError {
  status: 400 | 415 | 422;
  message: string;
  /** IVMS101 errors when the identity payload is what failed. */
  issues?: Ivms101Issue[];
}

export type Parsed<T> = { ok: true; value: T; warnings: string[] } | { ok: false; error: TrpError };

export interface TrpRequest {
  headers: Record<string, string>;
  body: string;
}

export function newRequestIdentifier(): string {
  return randomUUID();
}

export function trpHeaders(requestIdentifier: string, extensions: string[] = []): Record<string, string> {
  const h: Record<string, string> = {
    [TRP_HEADERS.apiVersion]: TRP_API_VERSION,
    [TRP_HEADERS.requestIdentifier]: requestIdentifier,
    [TRP_HEADERS.contentType]: TRP_CONTENT_TYPE,
  };
  if (extensions.length > 0) h[TRP_HEADERS.apiExtensions] = extensions.join(',');
  return h;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const AMOUNT_SLOT = '"__verity_trp_amount__"';

/** The inquiry body; the amount is spliced in as written so no float ever touches it. */
export function serializeInquiry(inquiry: TrpInquiry): string {
  if (!DECIMAL.test(inquiry.amount) || /^0+(\.0+)?$/.test(inquiry.amount)) {
    throw new RangeError(`a TRP amount is a positive decimal string, got ${inquiry.amount}`);
  }
  const wire = {
    asset: inquiry.asset,
    amount: '__verity_trp_amount__',
    callback: inquiry.callback,
    IVMS101: inquiry.ivms101,
    ...(inquiry.extensions ? { extensions: inquiry.extensions } : {}),
  };
  return JSON.stringify(wire).replace(AMOUNT_SLOT, inquiry.amount);
}

export function buildInquiryRequest(inquiry: TrpInquiry, requestIdentifier = newRequestIdentifier()): TrpRequest {
  return { headers: trpHeaders(requestIdentifier), body: serializeInquiry(inquiry) };
}

export function serializeResolution(r: TrpResolution): string {
  if (r.kind === 'approved') return JSON.stringify({ approved: { address: r.address, callback: r.callback } });
  if (r.kind === 'rejected') return JSON.stringify({ rejected: r.comment });
  return JSON.stringify({ version: r.version });
}

export function serializeConfirmation(c: TrpConfirmation): string {
  return JSON.stringify(c.kind === 'txid' ? { txid: c.txid } : { canceled: c.comment });
}

/** TRP's rejection is a free comment; ours starts with the reject code so a Verity peer can read it back. */
export function rejectionComment(code: string, message: string): string {
  return `${code}: ${message}`;
}

/** Read a rejection comment: our reject code and its retry flag when it starts with a known code. */
export function readRejectionComment(comment: string): { code?: string; retryable?: boolean; message: string } {
  const m = /^([A-Za-z_]+):\s*([\s\S]*)$/.exec(comment);
  const known = m ? rejectCode(m[1]!) : undefined;
  if (!m || !known) return { message: comment };
  return { code: known.code, retryable: known.retryable, message: m[2]! };
}

/** A JSON number as the decimal string the sender most likely wrote (shortest round trip, no exponent). */
export function numberToDecimal(n: number): string {
  const s = String(n);
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[1]! + (m[2] ?? '');
  const exp = Number(m[3]);
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  return digits.padEnd(exp + 1, '0');
}

const fail = (status: TrpError['status'], message: string, issues?: Ivms101Issue[]): { ok: false; error: TrpError } => ({
  ok: false,
  error: issues ? { status, message, issues } : { status, message },
});
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function json(body: unknown): { ok: true; value: unknown } | { ok: false; error: TrpError } {
  if (typeof body !== 'string') return { ok: true, value: body };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return fail(400, 'body is not JSON');
  }
}

/**
 * Parse and validate an inquiry (ours to receive). The IVMS101 payload is normalised and validated with the
 * lenient profile: counterparty data with a bad LEI check digit is flagged for review rather than refused.
 */
export function parseInquiry(body: unknown): Parsed<TrpInquiry> {
  const j = json(body);
  if (!j.ok) return j;
  const v = j.value;
  if (!isObject(v)) return fail(400, 'an inquiry is a JSON object');
  const asset = v.asset;
  if (!isObject(asset) || (!nonEmpty(asset.dti) && !nonEmpty(asset.slip0044) && typeof asset.slip0044 !== 'number')) {
    return fail(400, 'invalid: must specify either DTI or SLIP-0044 asset identifier');
  }
  let amount: string;
  if (typeof v.amount === 'number' && Number.isFinite(v.amount) && v.amount > 0) amount = numberToDecimal(v.amount);
  else if (typeof v.amount === 'string' && DECIMAL.test(v.amount) && Number(v.amount) > 0) amount = v.amount;
  else return fail(400, 'invalid: must specify a non-zero amount');
  if (!nonEmpty(v.callback) || !URL.canParse(v.callback)) return fail(400, 'invalid: callback URL is required');
  if (!isObject(v.IVMS101)) return fail(400, 'invalid: must specify IVMS101 identity payload');
  const normalized = normalizeIvms101(v.IVMS101);
  const check = validateIvms101(normalized.value, { profile: 'lenient' });
  if (!check.valid) return fail(422, 'IVMS101 identity payload is invalid', check.errors);
  const inquiry: TrpInquiry = {
    asset: {
      ...(nonEmpty(asset.dti) ? { dti: asset.dti } : {}),
      ...(asset.slip0044 !== undefined ? { slip0044: asset.slip0044 as string | number } : {}),
    },
    amount,
    callback: v.callback,
    ivms101: normalized.value as IdentityPayload,
    ...(isObject(v.extensions) ? { extensions: v.extensions } : {}),
  };
  const warnings = [...normalized.changes.map((c) => `normalised ${c}`), ...check.warnings.map((w) => `${w.code} ${w.path}: ${w.message}`)];
  return { ok: true, value: inquiry, warnings };
}

/** Parse a resolution: exactly one of approved, rejected or version (acknowledged). */
export function parseResolution(body: unknown): Parsed<TrpResolution> {
  const j = json(body);
  if (!j.ok) return j;
  const v = j.value;
  if (!isObject(v)) return fail(400, 'a resolution is a JSON object');
  const present = ['approved', 'rejected', 'version'].filter((k) => v[k] !== undefined && v[k] !== null);
  if (present.length === 0) return fail(400, 'invalid: must specify one of version, approved, or rejected');
  if (present.length > 1) return fail(400, 'invalid: may specify only one of version, approved, or rejected');
  if (present[0] === 'approved') {
    const a = v.approved;
    if (!isObject(a) || !nonEmpty(a.address)) return fail(400, 'invalid: payment address is required');
    if (!nonEmpty(a.callback) || !URL.canParse(a.callback)) return fail(400, 'invalid: callback URL is required');
    return { ok: true, value: { kind: 'approved', address: a.address, callback: a.callback }, warnings: [] };
  }
  if (present[0] === 'rejected') {
    if (typeof v.rejected !== 'string') return fail(400, 'invalid: rejected carries a comment string');
    return { ok: true, value: { kind: 'rejected', comment: v.rejected }, warnings: [] };
  }
  if (!nonEmpty(v.version)) return fail(400, 'invalid: version is a string');
  return { ok: true, value: { kind: 'acknowledged', version: v.version }, warnings: [] };
}

/** Parse a confirmation: exactly one of txid or canceled. */
export function parseConfirmation(body: unknown): Parsed<TrpConfirmation> {
  const j = json(body);
  if (!j.ok) return j;
  const v = j.value;
  if (!isObject(v)) return fail(400, 'a confirmation is a JSON object');
  const hasTx = v.txid !== undefined && v.txid !== null;
  const hasCancel = v.canceled !== undefined && v.canceled !== null;
  if (hasTx && hasCancel) return fail(400, 'invalid: cannot specify both txid and canceled in confirmation');
  if (hasTx && nonEmpty(v.txid)) return { ok: true, value: { kind: 'txid', txid: v.txid }, warnings: [] };
  if (hasCancel && typeof v.canceled === 'string') return { ok: true, value: { kind: 'canceled', comment: v.canceled }, warnings: [] };
  return fail(400, 'invalid: must specify either txid or canceled in confirmation');
}
