import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db.js';
import type { Environment, RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { AppError } from '../../platform/errors.js';
import { emitAudit } from '../../platform/audit.js';
import { getAccount } from '../../platform/accounts.js';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';
import { lockedFor, recordFailure, ROLE_SCOPES, sessionVerdict, type LockoutPolicy, type Role } from './policy.js';
import { decodeBase32Secret, newTotpSecret, otpauthUri, verifyTotp } from './totp.js';
import type { ConsoleSettings } from './settings.js';
import * as repo from './repository.js';

const TOTP_PURPOSE = 'operator-totp';
/** A sign-in waiting for its TOTP code lasts five minutes. */
const CHALLENGE_MS = 5 * 60_000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const token = () => randomBytes(32).toString('base64url');
/**
 * The session's CSRF token is derived from its cookie token (HMAC keyed by the cookie), so /me can
 * hand it to a reloaded page; knowing it reveals nothing of the cookie, and it is useless without it.
 */
const csrfFor = (cookieToken: string) => createHmac('sha256', cookieToken).update('verity-console-csrf').digest('base64url');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class UsageProblem extends Error {}

/** Creates an operator (CLI). With totp, returns the secret's otpauth URI, shown once. */
export async function createOperator(
  db: Db,
  sealer: Sealer,
  input: { accountId: string; email: string; password: string; role: Role; totp: boolean },
): Promise<{ operator: repo.OperatorView; otpauth: string | null }> {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw new UsageProblem(`"${input.email}" is not an email address`);
  const problem = passwordProblem(input.password);
  if (problem) throw new UsageProblem(problem);
  if (!(await getAccount(db, input.accountId))) throw new UsageProblem(`no account ${input.accountId}`);
  if ((await repo.findOperatorsByEmail(db, email)).some((o) => o.account_id === input.accountId))
    throw new UsageProblem(`account ${input.accountId} already has an operator ${email}`);
  const secret = input.totp ? newTotpSecret() : null;
  const row = await repo.insertOperator(db, {
    accountId: input.accountId,
    email,
    passwordHash: await hashPassword(input.password),
    role: input.role,
    totpSecret: secret ? sealer.seal(TOTP_PURPOSE, secret.base32) : null,
  });
  return { operator: repo.operatorView(row), otpauth: secret ? otpauthUri(secret.base32, email) : null };
}

export interface Principal {
  operator: repo.OperatorRow;
  session: repo.SessionRow;
  scopes: readonly string[];
}

export type LoginResult =
  { kind: 'signed_in'; token: string; csrf: string; principal: Principal } | { kind: 'totp_required'; challenge: string };

const unauthenticated = (message: string) => new AppError('unauthenticated', message, { field: null });
const locked = (who: string, seconds: number) =>
  new AppError('rate_limited', `Too many failed sign-ins ${who}; sign-in is locked for ${seconds} seconds.`, {
    field: null,
    headers: { 'retry-after': String(seconds) },
  });

/**
 * Console sign-in and sessions. Every method takes the time from `now()` so lockout and timeouts
 * are tested with an injected clock.
 */
export class ConsoleAuth {
  private readonly operatorPolicy: LockoutPolicy;
  private readonly ipPolicy: LockoutPolicy;
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    readonly settings: ConsoleSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    const ms = settings.lockoutMinutes * 60_000;
    this.operatorPolicy = { maxFailures: settings.maxFailures, windowMs: ms, lockMs: ms };
    this.ipPolicy = { maxFailures: settings.maxFailures * settings.ipFailureFactor, windowMs: ms, lockMs: ms };
  }

  /** Throws 429 when the address or the operator is locked. */
  private async refuseIfLocked(ip: string, operatorId: string | null): Promise<void> {
    const now = this.now();
    const ipLeft = lockedFor(await repo.readFailures(this.db, `ip:${ip}`), now);
    if (ipLeft > 0) throw locked('from this address', ipLeft);
    if (operatorId) {
      const opLeft = lockedFor(await repo.readFailures(this.db, `operator:${operatorId}`), now);
      if (opLeft > 0) throw locked('for this operator', opLeft);
    }
  }

  /** Counts a failure against the address and the operator (serialised per subject); throws the refusal. */
  private async fail(ip: string, operatorId: string | null, message: string): Promise<never> {
    const now = this.now();
    const subjects: [string, LockoutPolicy][] = [[`ip:${ip}`, this.ipPolicy]];
    if (operatorId) subjects.push([`operator:${operatorId}`, this.operatorPolicy]);
    for (const [subject, policy] of subjects) {
      await this.db.transaction(async (tx) => {
        await repo.lockFailures(tx, subject, now);
        const current = await repo.readFailures(tx, subject);
        await repo.writeFailures(tx, subject, recordFailure(current && current.failures > 0 ? current : null, now, policy));
      });
    }
    throw unauthenticated(message);
  }

  async login(input: { email: string; password: string; account?: string; environment: Environment; ip: string }): Promise<LoginResult> {
    await this.refuseIfLocked(input.ip, null);
    const email = normaliseEmail(input.email);
    const candidates = (await repo.findOperatorsByEmail(this.db, email)).filter((o) => !input.account || o.account_id === input.account);
    if (candidates.length > 1)
      throw new AppError('invalid_request', 'This email signs in to several accounts; send account (acct_…) to choose one.', {
        field: 'account',
      });
    const operator = candidates[0] ?? null;
    if (operator) await this.refuseIfLocked(input.ip, operator.id);
    const ok = await verifyPassword(operator?.password_hash ?? null, input.password);
    if (!operator || !ok || operator.disabled_at) return this.fail(input.ip, operator?.id ?? null, 'The email or password is wrong.');
    if (operator.totp_secret) {
      const challenge = await this.open(operator, input.environment, true);
      return { kind: 'totp_required', challenge: challenge.token };
    }
    return this.signedIn(operator, input.environment, input.ip);
  }

  async completeTotp(input: { challenge: string; code: string; ip: string }): Promise<LoginResult> {
    await this.refuseIfLocked(input.ip, null);
    const found = await repo.findSession(this.db, sha256(input.challenge));
    const now = this.now();
    if (!found || !found.mfa_pending || found.revoked_at || now >= found.expires_at || found.operator.disabled_at)
      return this.fail(input.ip, null, 'The sign-in has expired or is unknown; start again with email and password.');
    const operator = found.operator;
    await this.refuseIfLocked(input.ip, operator.id);
    const secret = decodeBase32Secret(this.sealer.open(TOTP_PURPOSE, operator.totp_secret!));
    const step = verifyTotp(secret, input.code, now);
    if (step === null || !(await repo.claimTotpStep(this.db, operator.id, step)))
      return this.fail(input.ip, operator.id, 'The code is wrong or has already been used.');
    await repo.revokeSession(this.db, found.token_hash, now);
    return this.signedIn(operator, found.environment, input.ip);
  }

  private async signedIn(operator: repo.OperatorRow, environment: Environment, ip: string): Promise<LoginResult> {
    await repo.clearFailures(this.db, `operator:${operator.id}`);
    const { token: t, csrf, session } = await this.open(operator, environment, false, ip);
    return { kind: 'signed_in', token: t, csrf, principal: { operator, session, scopes: ROLE_SCOPES[operator.role] } };
  }

  private async open(operator: repo.OperatorRow, environment: Environment, mfaPending: boolean, ip?: string) {
    const now = this.now();
    const t = token();
    const csrf = csrfFor(t);
    const session: repo.SessionRow = {
      token_hash: sha256(t),
      operator_id: operator.id,
      account_id: operator.account_id,
      environment,
      csrf_hash: sha256(csrf),
      mfa_pending: mfaPending,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + (mfaPending ? CHALLENGE_MS : this.settings.absoluteMinutes * 60_000)),
      revoked_at: null,
    };
    await this.db.transaction(async (tx) => {
      await repo.insertSession(tx, session);
      if (!mfaPending) await this.audit(tx, operator, environment, 'console.signed_in', { ip: ip ?? null });
    });
    return { token: t, csrf, session };
  }

  private audit(tx: Queryable, operator: repo.OperatorRow, environment: Environment, action: string, metadata: Record<string, unknown>) {
    const ctx: RequestContext = {
      db: this.db,
      accountId: operator.account_id,
      environment,
      actor: { type: 'operator', id: operator.id },
      scopes: [],
      requestId: 'console',
    };
    return emitAudit(tx, ctx, { action, resourceType: 'operator', resourceId: operator.id, metadata });
  }

  /** The session a cookie names, if it still authenticates; refreshes its idle timer. */
  async authenticate(cookieToken: string): Promise<{ principal: Principal; csrf: string } | { problem: string }> {
    const found = await repo.findSession(this.db, sha256(cookieToken));
    if (!found || found.mfa_pending) return { problem: 'The console session is not valid; sign in again.' };
    const now = this.now();
    const verdict = sessionVerdict(
      { createdAt: found.created_at, lastSeenAt: found.last_seen_at, expiresAt: found.expires_at, revokedAt: found.revoked_at },
      now,
      this.settings.idleMinutes * 60_000,
    );
    if (verdict !== 'active')
      return {
        problem:
          verdict === 'idle_timeout'
            ? 'The console session ended after inactivity; sign in again.'
            : verdict === 'absolute_timeout'
              ? 'The console session reached its maximum length; sign in again.'
              : 'The console session was ended; sign in again.',
      };
    if (found.operator.disabled_at) return { problem: 'This operator is disabled.' };
    // Written at most once a minute per session, not on every request; with a short idle timeout, four
    // times per timeout, so a session in use never reaches it between two writes.
    if (now.getTime() - found.last_seen_at.getTime() >= Math.min(60_000, (this.settings.idleMinutes * 60_000) / 4))
      await repo.touchSession(this.db, found.token_hash, now);
    const { operator, ...session } = found;
    return { principal: { operator, session, scopes: ROLE_SCOPES[operator.role] }, csrf: csrfFor(cookieToken) };
  }

  checkCsrf(principal: Principal, presented: string | undefined): boolean {
    return typeof presented === 'string' && presented.length > 0 && sameHash(sha256(presented), principal.session.csrf_hash);
  }

  /** Moves the session to the other environment; the switch is audited in both. */
  async switchEnvironment(principal: Principal, environment: Environment): Promise<Principal> {
    const from = principal.session.environment;
    if (from === environment) return principal;
    await this.db.transaction(async (tx) => {
      await repo.setSessionEnvironment(tx, principal.session.token_hash, environment);
      await this.audit(tx, principal.operator, from, 'console.environment_switched', { from, to: environment });
      await this.audit(tx, principal.operator, environment, 'console.environment_switched', { from, to: environment });
    });
    return { ...principal, session: { ...principal.session, environment } };
  }

  async logout(principal: Principal): Promise<void> {
    await this.db.transaction(async (tx) => {
      await repo.revokeSession(tx, principal.session.token_hash, this.now());
      await this.audit(tx, principal.operator, principal.session.environment, 'console.signed_out', {});
    });
  }
}
