import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startVerification, confirmVerification, type VerificationState } from './otp.js';
import { hashCode } from './otp-code.js';

const secret = 'test-secret';
const t0 = new Date('2026-01-01T10:00:00Z');
const after = (s: number): Date => new Date(t0.getTime() + s * 1000);
const start = (prev: VerificationState | null = null, now = t0, history: Date[] = []) => {
  const r = startVerification(prev, { channel: 'sms', destination: '+447700900123', now, secret, destinationHistory: history });
  if (!r.ok) throw new Error(`refused: ${r.reason}`);
  return r;
};

describe('startVerification', () => {
  test('stores only an HMAC of the code, never the code', () => {
    const { state, code } = start();
    assert.match(code, /^\d{6}$/);
    assert.equal(JSON.stringify(state).includes(code), false);
    assert.equal(state.codeHash, hashCode(secret, state.salt, state.destination, code));
    assert.equal(state.expiresAt, after(600).toISOString());
  });

  test('resend replaces the code, keeps attempts, and enforces cooldown and limit', () => {
    const first = start();
    const tooSoon = startVerification(first.state, { channel: 'sms', destination: '+447700900123', now: after(10), secret });
    assert.equal(tooSoon.ok, false);
    assert.equal(!tooSoon.ok && tooSoon.reason, 'resend_too_soon');
    assert.equal(!tooSoon.ok && tooSoon.retryAfterSeconds, 20);
    const wrong = confirmVerification(first.state, '000000' === first.code ? '111111' : '000000', after(20), secret);
    const second = start(wrong.state, after(40));
    assert.equal(second.state.attempts, 1);
    assert.notEqual(second.state.codeHash, first.state.codeHash);
    assert.equal(confirmVerification(second.state, first.code, after(41), secret).outcome === 'verified', first.code === second.code);
    const third = start(second.state, after(80));
    const fourth = startVerification(third.state, { channel: 'sms', destination: '+447700900123', now: after(200), secret });
    assert.equal(!fourth.ok && fourth.reason, 'resend_limit');
  });

  test('per-destination history rate-limits across verifications', () => {
    const history = [after(-300), after(-200), after(-100)];
    const r = startVerification(null, { channel: 'sms', destination: '+447700900123', now: t0, secret, destinationHistory: history });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, 'rate_limited');
    assert.equal(!r.ok && r.retryAfterSeconds, 300);
  });

  test('refuses a resend to another destination', () => {
    const first = start();
    const r = startVerification(first.state, { channel: 'sms', destination: '+447700900999', now: after(60), secret });
    assert.equal(!r.ok && r.reason, 'destination_changed');
  });
});

describe('confirmVerification', () => {
  test('right code verifies once; a second confirm reports already_verified', () => {
    const { state, code } = start();
    const ok = confirmVerification(state, code, after(30), secret);
    assert.equal(ok.outcome, 'verified');
    assert.equal(ok.state.status, 'verified');
    assert.equal(confirmVerification(ok.state, code, after(31), secret).outcome, 'already_verified');
  });

  test('code with spaces is accepted, wrong secret is not', () => {
    const { state, code } = start();
    assert.equal(confirmVerification(state, `${code.slice(0, 3)} ${code.slice(3)}`, after(1), secret).outcome, 'verified');
    assert.equal(confirmVerification(state, code, after(1), 'other-secret').outcome, 'invalid_code');
  });

  test('expires after the configured time', () => {
    const { state, code } = start();
    const r = confirmVerification(state, code, after(600), secret);
    assert.equal(r.outcome, 'expired');
    assert.equal(r.state.status, 'expired');
  });

  test('locks after max attempts, even for the right code', () => {
    const { state, code } = start();
    const wrong = code === '123456' ? '654321' : '123456';
    let s = state;
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = confirmVerification(s, wrong, after(i + 1), secret);
      outcomes.push(r.outcome);
      s = r.state;
    }
    assert.deepEqual(outcomes, ['invalid_code', 'invalid_code', 'invalid_code', 'invalid_code', 'too_many_attempts']);
    assert.equal(confirmVerification(s, code, after(10), secret).outcome, 'too_many_attempts');
    const resend = startVerification(s, { channel: 'sms', destination: s.destination, now: after(100), secret });
    assert.equal(!resend.ok && resend.reason, 'locked');
  });
});
