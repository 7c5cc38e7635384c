import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReplayGuard, signPayload, verifyWebhook, WebhookVerificationError } from './webhooks.js';

const now = new Date('2026-11-21T10:00:00Z');
const body = JSON.stringify({
  id: 'evt_1',
  type: 'webhook.test',
  created_at: now.toISOString(),
  environment: 'sandbox',
  sequence: 1,
  resource: null,
  data: {},
  delivery: { id: 'wdl_1', attempt: 1, sent_at: now.toISOString() },
});

test('HMAC-SHA256 over the raw body, lowercase hex (a known vector)', () => {
  assert.equal(signPayload('hello', 'secret'), '88aab3ede8d3adf94d26ab90d3bafd4a2083070c3bcce9c014ee04a443847c0b');
});

test('verifies a good signature, with either secret during rotation', () => {
  const sig = `${signPayload(body, 'whsec_new')},${signPayload(body, 'whsec_old')}`;
  assert.equal(verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_old', now }).id, 'evt_1');
  assert.equal(verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_new', now }).id, 'evt_1');
});

test('rejects a wrong secret, an edited body, a truncated signature, an old delivery and a duplicate', () => {
  const sig = signPayload(body, 'whsec_a');
  const reason = (fn: () => unknown) => {
    try {
      fn();
      return 'accepted';
    } catch (e) {
      return (e as WebhookVerificationError).reason;
    }
  };
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_b', now })),
    'bad_signature',
  );
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body.replace('sandbox', 'production'), signature: sig, secrets: 'whsec_a', now })),
    'bad_signature',
  );
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: sig.slice(0, 40), secrets: 'whsec_a', now })),
    'bad_signature',
  );
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: undefined, secrets: 'whsec_a', now })),
    'missing_signature',
  );
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_a', now: new Date(now.getTime() + 301_000) })),
    'too_old',
  );
  const guard = createReplayGuard();
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_a', now, seen: guard.seen })),
    'accepted',
  );
  assert.equal(
    reason(() => verifyWebhook({ rawBody: body, signature: sig, secrets: 'whsec_a', now, seen: guard.seen })),
    'duplicate',
  );
});
