import { createHash } from 'node:crypto';
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

/** Writes an audit row in the caller's transaction: if it fails, the mutation fails with it. */
export async function emitAudit(tx: Queryable, ctx: RequestContext, input: AuditInput): Promise<string> {
  const id = newId('audit');
  await writeOrDefer(
    tx,
    `INSERT INTO audit_events (id, account_id, environment, actor_type, actor_id, action, resource_type, resource_id, request_id, diff, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb)`,
    [id, ctx.accountId, ctx.environment, ctx.actor.type, ctx.actor.id, input.action, input.resourceType, input.resourceId, ctx.requestId,
      input.diff ? JSON.stringify(input.diff) : null, input.metadata ? JSON.stringify(input.metadata) : null],
  );
  return id;
}

/** Field-level diff of two flat records, for update audits. */
export function diffRecords(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { before: unknown; after: unknown }> {
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
}

const GENESIS = '0'.repeat(64);

/** Canonical JSON (sorted keys) so the hash does not depend on the driver's key order. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

export function auditRowHash(prevHash: string, seq: number, row: AuditRow): string {
  const content = canonical({
    seq, id: row.id, account_id: row.account_id, environment: row.environment, actor_type: row.actor_type, actor_id: row.actor_id,
    action: row.action, resource_type: row.resource_type, resource_id: row.resource_id, request_id: row.request_id,
    diff: row.diff, metadata: row.metadata, created_at: new Date(row.created_at).toISOString(),
  });
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
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
    const [head] = await tx.query<{ chain_seq: number; hash: string }>('SELECT chain_seq, hash FROM audit_events WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1');
    let seq = head ? Number(head.chain_seq) : 0;
    let prev = head?.hash ?? GENESIS;
    const rows = await tx.query<AuditRow>('SELECT * FROM audit_events WHERE chain_seq IS NULL ORDER BY id LIMIT $1', [batch]);
    if (rows.length === 0) return 0;
    const ids: string[] = [];
    const seqs: number[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const row of rows) {
      seq += 1;
      const hash = auditRowHash(prev, seq, row);
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
  let prev = GENESIS;
  let expected = 1;
  let checked = 0;
  for (;;) {
    const rows = await db.query<AuditRow>('SELECT * FROM audit_events WHERE chain_seq >= $1 ORDER BY chain_seq LIMIT $2', [expected, pageSize]);
    if (rows.length === 0) break;
    for (const row of rows) {
      const seq = Number(row.chain_seq);
      if (seq !== expected) return { ok: false, checked, unsealed: 0, firstBadSeq: expected, problem: `row ${expected} of the chain is missing` };
      if (row.prev_hash !== prev) return { ok: false, checked, unsealed: 0, firstBadSeq: seq, problem: `row ${seq} (${row.id}) does not link to the previous row` };
      const hash = auditRowHash(prev, seq, row);
      if (hash !== row.hash) return { ok: false, checked, unsealed: 0, firstBadSeq: seq, problem: `row ${seq} (${row.id}) was altered after sealing` };
      prev = hash;
      expected++;
      checked++;
    }
  }
  const [u] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE chain_seq IS NULL');
  return { ok: true, checked, unsealed: u?.n ?? 0, firstBadSeq: null, problem: null };
}
