import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from './db.js';
import type { RequestContext } from './context.js';
import { newId } from './ids.js';
import { writeOrDefer } from './transaction.js';

export interface AuditInput {
  action: string;
  resourceType: string;
  resourceId: string;
  /** For updates: the changed fields, before and after. */
  diff?: Record<string, { before: unknown; after: unknown }> | null;
  metadata?: Record<string, unknown> | null;
}

let chainKey: Buffer | null = null;

/**
 * Sets the key of the audit chain, derived from MASTER_KEY (HMAC-SHA256, purpose `audit-chain`).
 * Called once at start by every process that writes, seals or verifies audit rows (the app, the worker,
 * the CLI); the key never leaves the process and is never stored.
 */
export function configureAuditKey(masterKey: Buffer): void {
  chainKey = createHmac('sha256', masterKey).update('verity:audit-chain').digest();
}

function key(): Buffer {
  if (!chainKey) throw new Error('the audit chain key is not configured (configureAuditKey at start)');
  return chainKey;
}

const mac = (label: string, content: string): string =>
  createHmac('sha256', key()).update(label).update('\n').update(content).digest('hex');

/** What the service vouches for when it inserts a row (created_at is the database's, so the chain covers it). */
function rowContent(
  r: Pick<
    AuditRow,
    | 'id'
    | 'account_id'
    | 'environment'
    | 'actor_type'
    | 'actor_id'
    | 'action'
    | 'resource_type'
    | 'resource_id'
    | 'request_id'
    | 'diff'
    | 'metadata'
  >,
): string {
  return canonical({
    id: r.id,
    account_id: r.account_id,
    environment: r.environment,
    actor_type: r.actor_type,
    actor_id: r.actor_id,
    action: r.action,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
    request_id: r.request_id,
    diff: r.diff ?? null,
    metadata: r.metadata ?? null,
  });
}

/** Writes an audit row in the caller's transaction: if it fails, the mutation fails with it. */
export async function emitAudit(tx: Queryable, ctx: RequestContext, input: AuditInput): Promise<string> {
  const id = newId('audit');
  const diff = input.diff ?? null;
  const metadata = input.metadata ?? null;
  const rowMac = mac(
    'row',
    rowContent({
      id,
      account_id: ctx.accountId,
      environment: ctx.environment,
      actor_type: ctx.actor.type,
      actor_id: ctx.actor.id,
      action: input.action,
      resource_type: input.resourceType,
      resource_id: input.resourceId,
      request_id: ctx.requestId,
      diff,
      metadata,
    }),
  );
  await writeOrDefer(
    tx,
    `INSERT INTO audit_events (id, account_id, environment, actor_type, actor_id, action, resource_type, resource_id, request_id, diff, metadata, row_mac)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12)`,
    [
      id,
      ctx.accountId,
      ctx.environment,
      ctx.actor.type,
      ctx.actor.id,
      input.action,
      input.resourceType,
      input.resourceId,
      ctx.requestId,
      diff ? JSON.stringify(diff) : null,
      metadata ? JSON.stringify(metadata) : null,
      rowMac,
    ],
  );
  return id;
}

/** Field-level diff of two flat records, for update audits. */
export function diffRecords(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { before: unknown; after: unknown }> {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { before: before[k] ?? null, after: after[k] ?? null };
  }
  return out;
}

interface AuditRow {
  id: string;
  account_id: string;
  environment: string;
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  diff: unknown;
  metadata: unknown;
  created_at: Date;
  chain_seq: number | null;
  prev_hash: string | null;
  hash: string | null;
  row_mac: string | null;
}

/** Where the keyed chain starts (rows sealed before the upgrade keep their unkeyed links). */
interface ChainMeta {
  hmacFromSeq: number;
  legacyMaxId: string | null;
}

async function chainMeta(db: Queryable): Promise<ChainMeta> {
  const [m] = await db.query<{ hmac_from_seq: string | number; legacy_max_id: string | null }>(
    'SELECT hmac_from_seq, legacy_max_id FROM audit_chain_meta',
  );
  return m ? { hmacFromSeq: Number(m.hmac_from_seq), legacyMaxId: m.legacy_max_id } : { hmacFromSeq: 1, legacyMaxId: null };
}

const GENESIS = '0'.repeat(64);

/** Canonical JSON (sorted keys) so the hash does not depend on the driver's key order. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/** A row's link in the chain: HMAC from `meta.hmacFromSeq` on, the unkeyed SHA-256 of earlier versions before it. */
export function auditRowHash(
  prevHash: string,
  seq: number,
  row: AuditRow,
  meta: ChainMeta = { hmacFromSeq: 1, legacyMaxId: null },
): string {
  const content = canonical({
    seq,
    id: row.id,
    account_id: row.account_id,
    environment: row.environment,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    action: row.action,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    request_id: row.request_id,
    diff: row.diff,
    metadata: row.metadata,
    created_at: new Date(row.created_at).toISOString(),
    ...(seq >= meta.hmacFromSeq ? { row_mac: row.row_mac } : {}),
  });
  if (seq >= meta.hmacFromSeq) return createHmac('sha256', key()).update(prevHash).update('\n').update(content).digest('hex');
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
}

/** Whether the service wrote this row (its row_mac holds), or it predates row MACs. */
function rowVouched(row: AuditRow, meta: ChainMeta): boolean {
  if (meta.legacyMaxId !== null && row.id <= meta.legacyMaxId && row.row_mac === null) return true;
  if (!row.row_mac || row.row_mac.length !== 64) return false;
  return timingSafeEqual(Buffer.from(row.row_mac, 'hex'), Buffer.from(mac('row', rowContent(row)), 'hex'));
}

const SEAL_LOCK = 7_312_002;

/**
 * Links committed audit rows into one SHA-256 hash chain. Writers never wait for each other:
 * rows are inserted unsealed and this sealer, one at a time across all processes (advisory lock),
 * appends them to the chain in id order. Editing or deleting a sealed row breaks verification.
 */
export async function sealAuditChain(db: Db, batch = 1000): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [SEAL_LOCK]);
    if (!lock?.ok) return 0;
    const [head] = await tx.query<{ chain_seq: number; hash: string }>(
      'SELECT chain_seq, hash FROM audit_events WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1',
    );
    let seq = head ? Number(head.chain_seq) : 0;
    let prev = head?.hash ?? GENESIS;
    const meta = await chainMeta(tx);
    // The unsealed rows are the NULL entries of the chain_seq unique index (migration 0045).
    const rows = await tx.query<AuditRow>('SELECT * FROM audit_events WHERE chain_seq IS NULL ORDER BY id LIMIT $1', [batch]);
    if (rows.length === 0) return 0;
    const ids: string[] = [];
    const seqs: number[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const row of rows) {
      seq += 1;
      // A row without a valid row_mac is sealed too (the chain must go on), and verification names it.
      const hash = auditRowHash(prev, seq, row, meta);
      ids.push(row.id);
      seqs.push(seq);
      prevs.push(prev);
      hashes.push(hash);
      prev = hash;
    }
    // One statement for the whole batch: the embedded database has a single connection, and a
    // row-by-row loop here would hold it while API requests wait.
    await tx.query(
      `UPDATE audit_events a SET chain_seq = u.seq, prev_hash = u.prev, hash = u.hash
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS u(id, seq, prev, hash) WHERE a.id = u.id`,
      [ids, seqs, prevs, hashes],
    );
    return rows.length;
  });
}

export interface ChainVerification {
  ok: boolean;
  checked: number;
  unsealed: number;
  firstBadSeq: number | null;
  problem: string | null;
}

/** Recomputes the chain from the start; reports the first row whose hash or link does not hold, and any gap. */
export async function verifyAuditChain(db: Queryable, pageSize = 5000): Promise<ChainVerification> {
  const meta = await chainMeta(db);
  let prev = GENESIS;
  let expected = 1;
  let checked = 0;
  for (;;) {
    const rows = await db.query<AuditRow>('SELECT * FROM audit_events WHERE chain_seq >= $1 ORDER BY chain_seq LIMIT $2', [
      expected,
      pageSize,
    ]);
    if (rows.length === 0) break;
    for (const row of rows) {
      const seq = Number(row.chain_seq);
      if (seq !== expected)
        return { ok: false, checked, unsealed: 0, firstBadSeq: expected, problem: `row ${expected} of the chain is missing` };
      if (row.prev_hash !== prev)
        return { ok: false, checked, unsealed: 0, firstBadSeq: seq, problem: `row ${seq} (${row.id}) does not link to the previous row` };
      const hash = auditRowHash(prev, seq, row, meta);
      if (hash !== row.hash)
        return { ok: false, checked, unsealed: 0, firstBadSeq: seq, problem: `row ${seq} (${row.id}) was altered after sealing` };
      if (!rowVouched(row, meta))
        return {
          ok: false,
          checked,
          unsealed: 0,
          firstBadSeq: seq,
          problem: `row ${seq} (${row.id}) was not written by the service (no valid row MAC)`,
        };
      prev = hash;
      expected++;
      checked++;
    }
  }
  const [u] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE chain_seq IS NULL');
  return { ok: true, checked, unsealed: u?.n ?? 0, firstBadSeq: null, problem: null };
}

/**
 * A signed statement of the chain's head (sequence number, hash, row count, time), for the operator to
 * keep outside the database. Verifying against it detects what the chain alone cannot: rows deleted
 * from the end, or the whole chain replaced.
 */
export interface AuditCheckpoint {
  version: 1;
  head_seq: number;
  head_hash: string;
  hmac_from_seq: number;
  created_at: string;
  signature: string;
}

const checkpointBody = (c: Omit<AuditCheckpoint, 'signature'>) =>
  canonical({ version: c.version, head_seq: c.head_seq, head_hash: c.head_hash, hmac_from_seq: c.hmac_from_seq, created_at: c.created_at });

/** Seals what is pending, then signs the head of the chain. */
export async function auditCheckpoint(db: Db, now = new Date()): Promise<AuditCheckpoint> {
  while ((await sealAuditChain(db)) > 0);
  const [head] = await db.query<{ chain_seq: string | number; hash: string }>(
    'SELECT chain_seq, hash FROM audit_events WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1',
  );
  const meta = await chainMeta(db);
  const body = {
    version: 1 as const,
    head_seq: head ? Number(head.chain_seq) : 0,
    head_hash: head?.hash ?? GENESIS,
    hmac_from_seq: meta.hmacFromSeq,
    created_at: now.toISOString(),
  };
  return { ...body, signature: mac('checkpoint', checkpointBody(body)) };
}

/** Checks a checkpoint's signature and that the chain still holds its head: null when it does, else the problem. */
export async function checkAuditCheckpoint(db: Queryable, c: AuditCheckpoint): Promise<string | null> {
  if (c?.version !== 1 || typeof c.head_seq !== 'number' || typeof c.head_hash !== 'string' || typeof c.signature !== 'string')
    return 'not an audit checkpoint';
  const expected = mac('checkpoint', checkpointBody(c));
  if (c.signature.length !== expected.length || !timingSafeEqual(Buffer.from(c.signature), Buffer.from(expected))) {
    return 'the checkpoint signature does not hold (altered, or made with another MASTER_KEY)';
  }
  const meta = await chainMeta(db);
  if (meta.hmacFromSeq !== c.hmac_from_seq) return `the chain's keyed start moved from row ${c.hmac_from_seq} to ${meta.hmacFromSeq}`;
  if (c.head_seq === 0) return null;
  const [row] = await db.query<{ hash: string }>('SELECT hash FROM audit_events WHERE chain_seq = $1', [c.head_seq]);
  if (!row) {
    const [last] = await db.query<{ n: string | number | null }>('SELECT max(chain_seq) AS n FROM audit_events');
    return `row ${c.head_seq} of the checkpoint (${c.created_at}) is gone: the chain ends at row ${Number(last?.n ?? 0)}, rows were deleted from its end`;
  }
  if (row.hash !== c.head_hash)
    return `row ${c.head_seq} no longer has the hash the checkpoint (${c.created_at}) recorded: the chain was rewritten`;
  return null;
}

export interface TenantChainVerification extends ChainVerification {
  /** The chain's last sealed row when the check began (rows of every tenant count). */
  headSeq: number;
}

/**
 * Verifies one tenant's rows of the chain (one account and environment), for the tenant's own eyes: each
 * row's hash and row MAC, its link to the row before it and the row after it's link to it, whoever's those
 * neighbours are (their content is neither read nor reported). An edited row, a forged row, or a deleted row
 * next to one of the tenant's is found; a deleted run of other tenants' rows, or rows cut from the end, only
 * by the whole-chain `verity audit verify` with a checkpoint. Reads the tenant's rows in id order (the order
 * they were sealed in) over the tenant index, `pageSize` at a time.
 */
export async function verifyTenantAuditChain(
  db: Queryable,
  accountId: string,
  environment: string,
  pageSize = 2000,
): Promise<TenantChainVerification> {
  const meta = await chainMeta(db);
  const [h] = await db.query<{ n: string | number | null }>('SELECT max(chain_seq) AS n FROM audit_events');
  const headSeq = Number(h?.n ?? 0);
  let after = '';
  let checked = 0;
  const bad = (seq: number, problem: string): TenantChainVerification => ({
    ok: false,
    checked,
    unsealed: 0,
    firstBadSeq: seq,
    problem,
    headSeq,
  });
  for (;;) {
    const rows = await db.query<AuditRow & { before_hash: string | null; after_seq: string | number | null; after_prev: string | null }>(
      `SELECT a.*, p.hash AS before_hash, n.chain_seq AS after_seq, n.prev_hash AS after_prev
         FROM audit_events a
         LEFT JOIN audit_events p ON p.chain_seq = a.chain_seq - 1
         LEFT JOIN audit_events n ON n.chain_seq = a.chain_seq + 1
        WHERE a.account_id = $1 AND a.environment = $2 AND a.id > $3 AND a.chain_seq IS NOT NULL AND a.chain_seq <= $4
        ORDER BY a.id LIMIT $5`,
      [accountId, environment, after, headSeq, pageSize],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      const seq = Number(row.chain_seq);
      if (seq === 1 ? row.prev_hash !== GENESIS : row.before_hash === null)
        return bad(
          seq,
          seq === 1
            ? `row 1 (${row.id}) does not start the chain`
            : `row ${seq - 1} of the chain, before row ${seq} (${row.id}), is missing`,
        );
      if (seq > 1 && row.prev_hash !== row.before_hash) return bad(seq, `row ${seq} (${row.id}) does not link to the previous row`);
      const hash = auditRowHash(row.prev_hash!, seq, row, meta);
      if (hash !== row.hash) return bad(seq, `row ${seq} (${row.id}) was altered after sealing`);
      if (!rowVouched(row, meta)) return bad(seq, `row ${seq} (${row.id}) was not written by the service (no valid row MAC)`);
      if (seq < headSeq && row.after_seq === null)
        return bad(seq + 1, `row ${seq + 1} of the chain, after row ${seq} (${row.id}), is missing`);
      if (row.after_seq !== null && row.after_prev !== hash)
        return bad(seq + 1, `row ${seq + 1} of the chain does not link to row ${seq} (${row.id})`);
      checked++;
      after = row.id;
    }
  }
  const [u] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_events WHERE chain_seq IS NULL AND account_id = $1 AND environment = $2',
    [accountId, environment],
  );
  return { ok: true, checked, unsealed: u?.n ?? 0, firstBadSeq: null, problem: null, headSeq };
}
