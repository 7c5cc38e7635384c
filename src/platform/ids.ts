import { randomBytesPooled } from './random.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** Every resource kind and its id prefix, in one place so prefixes never collide. */
export const ID_PREFIX = {
  account: 'acct',
  apiKey: 'key',
  request: 'req',
  audit: 'aud',
  event: 'evt',
  job: 'job',
  listEntry: 'lse',
  webhook: 'whd',
  delivery: 'wdl',
  attempt: 'wat',
  usage: 'use',
  session: 'ses',
  check: 'chk',
  media: 'med',
  journey: 'jrn',
  business: 'biz',
  transaction: 'txn',
  case: 'case',
  listSnapshot: 'lsn',
  monitoredSubject: 'msub',
  alert: 'alrt',
  /** A generic alert of any pillar (cases/alerts.ts): transaction rule, rule error, wallet, business, Travel Rule. */
  caseAlert: 'alt',
  rule: 'rul',
  ruleSnooze: 'rsn',
  transactionImport: 'timp',
  backtest: 'bkt',
  faceEnrollment: 'fen',
  verificationImport: 'vimp',
  correction: 'corr',
  operator: 'opr',
  travelRuleMessage: 'trm',
  counterparty: 'vasp',
  walletScreening: 'wsc',
  walletMonitor: 'wmon',
  walletImport: 'wimp',
  registryImport: 'rimp',
  businessDocument: 'bdoc',
  caseComment: 'cmt',
} as const;
export type IdKind = keyof typeof ID_PREFIX;

let lastMs = 0;
let lastRand: Buffer = Buffer.alloc(10);

/**
 * Prefixed, time-sortable id: 10 chars of millisecond time + 16 chars of randomness (ULID layout).
 * Within one millisecond the random part is incremented, so ids from one process sort in creation order.
 */
export function newId(kind: IdKind, now = Date.now()): string {
  let rand: Buffer;
  if (now <= lastMs) {
    rand = Buffer.from(lastRand);
    for (let i = rand.length - 1; i >= 0; i--) {
      rand[i] = (rand[i]! + 1) & 0xff;
      if (rand[i] !== 0) break;
    }
    now = lastMs;
  } else {
    rand = randomBytesPooled(10);
  }
  lastMs = now;
  lastRand = rand;
  const time = encodeTime(now);
  return `${ID_PREFIX[kind]}_${time}${base32of80(rand)}`;
}

/** The smallest id of `kind` made at `ms` or later: `id > idFloor(kind, t)` selects ids made since t (by the making process's clock). */
export function idFloor(kind: IdKind, ms: number): string {
  return `${ID_PREFIX[kind]}_${encodeTime(Math.max(0, Math.floor(ms)))}${'0'.repeat(16)}`;
}

/** 10 bytes (80 bits, big-endian) as 16 Crockford base32 characters, most significant first. */
export function base32of80(b: Buffer): string {
  return base32of40(b, 0) + base32of40(b, 5);
}

/** Five bytes from `at` (big-endian, 40 bits) as 8 base32 characters. */
function base32of40(b: Buffer, at: number): string {
  let v = b[at]! * 2 ** 32 + b.readUInt32BE(at + 1);
  let r = '';
  for (let i = 0; i < 8; i++) {
    r = ALPHABET[v % 32] + r;
    v = Math.floor(v / 32);
  }
  return r;
}

/** Milliseconds as the 10 leading base32 characters of an id. */
function encodeTime(ms: number): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIX[kind]}_`) && /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/.test(id);
}
