import type { Queryable } from '../../platform/db.js';
import type { Environment } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import type { FailureState, Role } from './policy.js';

/** All SQL of operators, console sessions and sign-in failure counters. */
export interface OperatorRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Role;
  totp_secret: string | null;
  totp_last_step: string | null;
  disabled_at: Date | null;
  created_at: Date;
}

export interface OperatorView {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  totp: boolean;
  disabled_at: Date | null;
  created_at: Date;
}

export const operatorView = (o: OperatorRow): OperatorView => ({
  id: o.id,
  account_id: o.account_id,
  email: o.email,
  role: o.role,
  totp: o.totp_secret !== null,
  disabled_at: o.disabled_at,
  created_at: o.created_at,
});

export async function insertOperator(
  db: Queryable,
  input: { accountId: string; email: string; passwordHash: string; role: Role; totpSecret: string | null },
): Promise<OperatorRow> {
  const rows = await db.query<OperatorRow>(
    `INSERT INTO operators (id, account_id, email, password_hash, role, totp_secret) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [newId('operator'), input.accountId, input.email, input.passwordHash, input.role, input.totpSecret],
  );
  return rows[0]!;
}

export async function findOperatorsByEmail(db: Queryable, email: string): Promise<OperatorRow[]> {
  return db.query<OperatorRow>('SELECT * FROM operators WHERE email = $1 ORDER BY id', [email]);
}

export async function getOperator(db: Queryable, id: string): Promise<OperatorRow | null> {
  return (await db.query<OperatorRow>('SELECT * FROM operators WHERE id = $1', [id]))[0] ?? null;
}

export async function listOperators(db: Queryable, accountId?: string): Promise<OperatorRow[]> {
  return db.query<OperatorRow>(
    `SELECT * FROM operators ${accountId ? 'WHERE account_id = $1' : ''} ORDER BY id`,
    accountId ? [accountId] : [],
  );
}

/** Disables the operator and ends every session they hold, in one transaction (the caller's). */
export async function disableOperator(tx: Queryable, id: string, now: Date): Promise<OperatorRow | null> {
  const rows = await tx.query<OperatorRow>('UPDATE operators SET disabled_at = coalesce(disabled_at, $2) WHERE id = $1 RETURNING *', [
    id,
    now,
  ]);
  if (rows.length === 0) return null;
  await tx.query('UPDATE console_sessions SET revoked_at = coalesce(revoked_at, $2) WHERE operator_id = $1', [id, now]);
  return rows[0]!;
}

/** Accepts a TOTP step only if it is later than the last one accepted (a code works once). */
export async function claimTotpStep(db: Queryable, id: string, step: bigint): Promise<boolean> {
  const rows = await db.query(
    'UPDATE operators SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id',
    [id, step.toString()],
  );
  return rows.length === 1;
}

export interface SessionRow {
  token_hash: string;
  operator_id: string;
  account_id: string;
  environment: Environment;
  csrf_hash: string;
  mfa_pending: boolean;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export async function insertSession(db: Queryable, s: Omit<SessionRow, 'revoked_at'>): Promise<void> {
  await db.query(
    `INSERT INTO console_sessions (token_hash, operator_id, account_id, environment, csrf_hash, mfa_pending, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [s.token_hash, s.operator_id, s.account_id, s.environment, s.csrf_hash, s.mfa_pending, s.created_at, s.last_seen_at, s.expires_at],
  );
}

export async function findSession(db: Queryable, tokenHash: string): Promise<(SessionRow & { operator: OperatorRow }) | null> {
  const rows = await db.query<SessionRow>('SELECT * FROM console_sessions WHERE token_hash = $1', [tokenHash]);
  const s = rows[0];
  if (!s) return null;
  const operator = await getOperator(db, s.operator_id);
  return operator ? { ...s, operator } : null;
}

export async function touchSession(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2', [tokenHash, now]);
}

export async function revokeSession(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET revoked_at = coalesce(revoked_at, $2) WHERE token_hash = $1', [tokenHash, now]);
}

/**
 * Inside a transaction: makes sure the subject's failure row exists and locks it, so concurrent failures
 * for one subject count one after the other (read, add, write).
 */
export async function lockFailures(tx: Queryable, subject: string, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO console_login_failures (subject, failures, window_started_at) VALUES ($1, 0, $2) ON CONFLICT (subject) DO NOTHING`,
    [subject, now],
  );
  await tx.query('SELECT 1 FROM console_login_failures WHERE subject = $1 FOR UPDATE', [subject]);
}

export async function readFailures(db: Queryable, subject: string): Promise<FailureState | null> {
  const rows = await db.query<{ failures: number; window_started_at: Date; locked_until: Date | null }>(
    'SELECT failures, window_started_at, locked_until FROM console_login_failures WHERE subject = $1',
    [subject],
  );
  const r = rows[0];
  return r
    ? {
        failures: r.failures,
        windowStartedAt: new Date(r.window_started_at),
        lockedUntil: r.locked_until ? new Date(r.locked_until) : null,
      }
    : null;
}

export async function writeFailures(db: Queryable, subject: string, s: FailureState): Promise<void> {
  await db.query(
    `INSERT INTO console_login_failures (subject, failures, window_started_at, locked_until) VALUES ($1, $2, $3, $4)
     ON CONFLICT (subject) DO UPDATE SET failures = EXCLUDED.failures, window_started_at = EXCLUDED.window_started_at, locked_until = EXCLUDED.locked_until`,
    [subject, s.failures, s.windowStartedAt, s.lockedUntil],
  );
}

export async function clearFailures(db: Queryable, subject: string): Promise<void> {
  await db.query('DELETE FROM console_login_failures WHERE subject = $1', [subject]);
}

export async function setSessionEnvironment(db: Queryable, tokenHash: string, environment: Environment): Promise<void> {
  await db.query('UPDATE console_sessions SET environment = $2 WHERE token_hash = $1', [tokenHash, environment]);
}
