import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { checkPhone } from './phone.js';
import { checkEmail, checkEmailSyntax } from './email.js';
import { isDisposableDomain } from './disposable-domains.js';
import { decideDestinationRate } from './rate-limit.js';
import { normalizeDestination } from './destination.js';

describe('phone', () => {
  test('normalises national and international forms to E.164', () => {
    assert.equal(checkPhone('07700 900123', { defaultCountry: 'GB' }).e164, '+447700900123');
    const p = checkPhone('+1 (415) 555-2671');
    assert.equal(p.e164, '+14155552671');
    assert.equal(p.country, 'US');
    assert.equal(checkPhone('020 7946 0958', { defaultCountry: 'GB' }).e164, '+442079460958');
  });
  test('refuses invalid, fixed-line, premium-rate and disallowed countries', () => {
    assert.equal(checkPhone('hello').reason, 'unparseable');
    assert.equal(checkPhone('+44 12').valid, false);
    assert.equal(checkPhone('+1 415 555 267').reason, 'invalid_number');
    assert.equal(checkPhone('+44 909 879 0000').reason, 'not_sms_capable');
    assert.equal(checkPhone('+49 1512 3456789', { allowedCountries: ['GB', 'FR'] }).reason, 'country_not_allowed');
    assert.equal(checkPhone('+33 6 12 34 56 78', { allowedCountries: ['GB', 'FR'] }).valid, true);
  });
});

describe('email', () => {
  test('syntax', () => {
    for (const ok of ['a@b.co', 'first.last+tag@Example.COM', "o'brien@mail.example.org"]) assert.equal(checkEmailSyntax(ok).ok, true, ok);
    for (const bad of ['', 'plain', '@x.com', 'a@', 'a..b@x.com', 'a@x', 'a@-x.com', 'a b@x.com', 'a@x.c0m', `${'x'.repeat(65)}@x.com`]) {
      assert.equal(checkEmailSyntax(bad).ok, false, bad);
    }
  });
  test('flags disposable domains including subdomains, lower-cases the domain', async () => {
    assert.equal(isDisposableDomain('mailinator.com'), true);
    assert.equal(isDisposableDomain('eu.mailinator.com'), true);
    assert.equal(isDisposableDomain('gmail.com'), false);
    const r = await checkEmail('Bob@YOPMAIL.com');
    assert.equal(r.valid, true);
    assert.equal(r.disposable, true);
    assert.equal(r.normalized, 'Bob@yopmail.com');
  });
  test('MX lookup only through an injected resolver', async () => {
    assert.equal((await checkEmail('a@example.com')).hasMx, null);
    const none = Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
    const r = await checkEmail('a@nomail.example', {
      resolveMx: async () => {
        throw none;
      },
    });
    assert.equal(r.valid, false);
    assert.equal(r.reason, 'no_mx');
    const ok = await checkEmail('a@mail.example', { resolveMx: async () => [{ exchange: 'mx.mail.example', priority: 10 }] });
    assert.equal(ok.hasMx, true);
    const unknown = await checkEmail('a@mail.example', {
      resolveMx: async () => {
        throw Object.assign(new Error('t'), { code: 'ETIMEOUT' });
      },
    });
    assert.equal(unknown.valid, true);
    assert.equal(unknown.hasMx, null);
  });
  test('normalizeDestination routes by channel', async () => {
    assert.equal((await normalizeDestination('sms', '+14155552671')).normalized, '+14155552671');
    const e = await normalizeDestination('email', 'x@trashmail.com');
    assert.deepEqual(e.flags, ['disposable_email']);
  });
});

describe('destination rate windows', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);
  test('allows under every window, refuses at the limit with the time until a slot frees', () => {
    const windows = [
      { windowSeconds: 60, maxSends: 2 },
      { windowSeconds: 3600, maxSends: 3 },
    ];
    assert.deepEqual(decideDestinationRate([ago(30)], now, windows), { allowed: true });
    const r = decideDestinationRate([ago(50), ago(10)], now, windows);
    assert.equal(r.allowed, false);
    assert.equal(!r.allowed && r.retryAfterSeconds, 10);
    const hourly = decideDestinationRate([ago(3000), ago(2000), ago(1000)], now, windows);
    assert.equal(!hourly.allowed && hourly.retryAfterSeconds, 600);
    assert.deepEqual(decideDestinationRate([ago(4000), ago(3700)], now, windows), { allowed: true });
  });
});
