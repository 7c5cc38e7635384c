import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb, TEST_MASTER_KEY } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { Sealer } from '../../platform/crypto.js';
import { createAccount } from '../../platform/accounts.js';
import { AppError } from '../../platform/errors.js';
import { ConsoleAuth, createOperator } from './service.js';
import { lockedFor, recordFailure, sessionVerdict } from './policy.js';
import type { ConsoleSettings } from './settings.js';
import { decodeBase32Secret, totp } from './totp.js';

const MIN = 60_000;
const policy = { maxFailures: 3, windowMs: 15 * MIN, lockMs: 15 * MIN };
const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

test('lockout: the limit-th failure in the window locks; the lock lapses; an old window starts over', () => {
  let s = recordFailure(null, t0, policy);
  s = recordFailure(s, at(MIN), policy);
  assert.equal(lockedFor(s, at(MIN)), 0);
  s = recordFailure(s, at(2 * MIN), policy);
  assert.equal(lockedFor(s, at(2 * MIN)), 15 * 60);
  assert.equal(lockedFor(s, at(16 * MIN)), 60);
  assert.equal(lockedFor(s, at(17 * MIN)), 0);
  // After the lock lapsed, one more failure counts from one again.
  assert.equal(recordFailure(s, at(17 * MIN), policy).failures, 1);
  // Failures spread wider than the window never lock.
  let spread = recordFailure(null, t0, policy);
  spread = recordFailure(spread, at(10 * MIN), policy);
  spread = recordFailure(spread, at(20 * MIN), policy);
  assert.equal(spread.failures, 1);
  assert.equal(lockedFor(spread, at(20 * MIN)), 0);
});

test('session timeouts: idle and absolute, with revocation first', () => {
  const s = { createdAt: t0, lastSeenAt: t0, expiresAt: at(60 * MIN), revokedAt: null };
  const idle = 30 * MIN;
  assert.equal(sessionVerdict(s, at(29 * MIN), idle), 'active');
  assert.equal(sessionVerdict(s, at(30 * MIN), idle), 'idle_timeout');
  assert.equal(sessionVerdict({ ...s, lastSeenAt: at(50 * MIN) }, at(59 * MIN), idle), 'active');
  assert.equal(sessionVerdict({ ...s, lastSeenAt: at(50 * MIN) }, at(60 * MIN), idle), 'absolute_timeout');
  assert.equal(sessionVerdict({ ...s, revokedAt: at(MIN) }, at(2 * MIN), idle), 'revoked');
});

let db: Db;
let close: () => Promise<void>;
let accountId: string;
const sealer = new Sealer(Buffer.from(TEST_MASTER_KEY, 'hex'));
const settings: ConsoleSettings = {
  idleMinutes: 30,
  absoluteMinutes: 120,
  maxFailures: 3,
  lockoutMinutes: 15,
  ipFailureFactor: 4,
  reviewSlaHours: 24,
  cookieSecure: true,
};
let now = t0;
const auth = () => new ConsoleAuth(db, sealer, settings, () => now);
const PASSWORD = 'correct horse battery staple';

before(async () => {
  ({ db, close } = await createTestDb());
  accountId = (await createAccount(db, { name: 'console' })).id;
});
after(() => close());

/** Why a cookie token no longer authenticates (or 'active'). */
const problemOf = async (token: string) => {
  const r = await auth().authenticate(token);
  return 'problem' in r ? r.problem : 'active';
};

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return `${err.status} ${err.code}`;
  }
};

test('ConsoleAuth: sign-in, idle and absolute timeout on an injected clock', async () => {
  now = t0;
  await createOperator(db, sealer, { accountId, email: 'Timer@Example.com', password: PASSWORD, role: 'viewer', totp: false });
  const r = await auth().login({ email: 'timer@example.com', password: PASSWORD, environment: 'sandbox', ip: '10.0.0.1' });
  assert.equal(r.kind, 'signed_in');
  if (r.kind !== 'signed_in') return;
  assert.equal(r.principal.operator.role, 'viewer');
  assert.ok(!r.principal.scopes.includes('verifications:write'));
  now = at(29 * MIN);
  assert.ok('principal' in (await auth().authenticate(r.token)));
  now = at(58 * MIN); // 29 minutes after the last use
  assert.ok('principal' in (await auth().authenticate(r.token)));
  now = at(89 * MIN); // 31 minutes idle
  assert.match(await problemOf(r.token), /inactivity/);

  now = t0;
  const r2 = await auth().login({ email: 'timer@example.com', password: PASSWORD, environment: 'sandbox', ip: '10.0.0.1' });
  assert.equal(r2.kind, 'signed_in');
  if (r2.kind !== 'signed_in') return;
  for (let m = 20; m < 120; m += 20) {
    now = at(m * MIN);
    assert.ok('principal' in (await auth().authenticate(r2.token)), `used at minute ${m}`);
  }
  now = at(120 * MIN);
  assert.match(await problemOf(r2.token), /maximum length/);
});

test('ConsoleAuth: with the least idle timeout (one minute), a session used every 20 seconds stays signed in', async () => {
  now = t0;
  const short = () => new ConsoleAuth(db, sealer, { ...settings, idleMinutes: 1 }, () => now);
  await createOperator(db, sealer, { accountId, email: 'brief@example.com', password: PASSWORD, role: 'viewer', totp: false });
  const r = await short().login({ email: 'brief@example.com', password: PASSWORD, environment: 'sandbox', ip: '10.0.0.1' });
  assert.equal(r.kind, 'signed_in');
  if (r.kind !== 'signed_in') return;
  for (let s = 20; s <= 300; s += 20) {
    now = new Date(t0.getTime() + s * 1000);
    const a = await short().authenticate(r.token);
    assert.ok('principal' in a, `used at second ${s}: ${'problem' in a ? a.problem : ''}`);
  }
  now = new Date(t0.getTime() + 361 * 1000); // 61 seconds after the last use
  const idle = await short().authenticate(r.token);
  assert.ok('problem' in idle && /inactivity/.test(idle.problem));
});

test('ConsoleAuth: lockout per operator, then per address; the right password is refused while locked', async () => {
  now = t0;
  await createOperator(db, sealer, { accountId, email: 'lock@example.com', password: PASSWORD, role: 'admin', totp: false });
  const login = (password: string, ip = '10.0.0.2', email = 'lock@example.com') =>
    code(auth().login({ email, password, environment: 'sandbox', ip }));
  assert.equal(await login('wrong-1'), '401 unauthenticated');
  assert.equal(await login('wrong-2', '10.0.0.3'), '401 unauthenticated');
  assert.equal(await login('wrong-3', '10.0.0.4'), '401 unauthenticated');
  // Locked per operator, whatever the address and even with the right password.
  assert.equal(await login(PASSWORD, '10.0.0.5'), '429 rate_limited');
  now = at(16 * MIN);
  assert.equal(await login(PASSWORD, '10.0.0.5'), 'ok');

  // Per address: 3 × 4 = 12 failures over unknown emails lock the address for everyone.
  now = at(20 * MIN);
  for (let i = 0; i < 12; i++) assert.equal(await login('x', '10.9.9.9', `nobody${i}@example.com`), '401 unauthenticated');
  assert.equal(await login(PASSWORD, '10.9.9.9'), '429 rate_limited');
  assert.equal(await login(PASSWORD, '10.0.0.6'), 'ok');
});

test('ConsoleAuth: TOTP step: wrong code refused, right code signs in once, replay refused', async () => {
  now = t0;
  const { otpauth } = await createOperator(db, sealer, {
    accountId,
    email: 'mfa@example.com',
    password: PASSWORD,
    role: 'reviewer',
    totp: true,
  });
  const secret = decodeBase32Secret(new URL(otpauth!).searchParams.get('secret')!);
  const first = await auth().login({ email: 'mfa@example.com', password: PASSWORD, environment: 'production', ip: '10.1.1.1' });
  assert.equal(first.kind, 'totp_required');
  if (first.kind !== 'totp_required') return;
  // The challenge is not a session.
  assert.ok('problem' in (await auth().authenticate(first.challenge)));
  const good = totp(secret, now);
  const bad = good === '000000' ? '111111' : '000000';
  assert.equal(await code(auth().completeTotp({ challenge: first.challenge, code: bad, ip: '10.1.1.1' })), '401 unauthenticated');
  const done = await auth().completeTotp({ challenge: first.challenge, code: good, ip: '10.1.1.1' });
  assert.equal(done.kind, 'signed_in');
  if (done.kind === 'signed_in') assert.equal(done.principal.session.environment, 'production');
  // The same code again (a new sign-in, same 30 s step) is refused.
  const again = await auth().login({ email: 'mfa@example.com', password: PASSWORD, environment: 'production', ip: '10.1.1.1' });
  if (again.kind !== 'totp_required') return assert.fail('expected a TOTP step');
  assert.equal(await code(auth().completeTotp({ challenge: again.challenge, code: good, ip: '10.1.1.1' })), '401 unauthenticated');
  // A challenge lapses after five minutes.
  now = at(6 * MIN);
  assert.equal(
    await code(auth().completeTotp({ challenge: again.challenge, code: totp(secret, now), ip: '10.1.1.1' })),
    '401 unauthenticated',
  );
});

test('passwords are stored as argon2id PHC strings', async () => {
  const rows = await db.query<{ password_hash: string }>("SELECT password_hash FROM operators WHERE email = 'lock@example.com'");
  assert.match(rows[0]!.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
});
