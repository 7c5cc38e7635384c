import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The subject only ever learns that their session is complete, never the decision (docs/capture.md). */
let t: TestApp;
before(async () => (t = await createTestApp()));
after(() => t.close());

test('after a decision, every capture answer says complete and never approved, declined or referred', async () => {
  const owner = await t.tenant();
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer();
  for (const decided of ['referred', 'declined', 'approved']) {
    const s = (
      await t.call('POST', '/v1/verifications', {
        key: owner.sandboxKey,
        body: { journey: 'kyc_standard', subject: { type: 'individual', reference: `cust_${decided}` } },
      })
    ).json();
    await t.db.query('UPDATE sessions SET status = $2 WHERE id = $1', [s.id, decided]);
    const answers = [
      await t.call('POST', '/capture/v1/submit', { key: s.session_token }),
      await t.app.inject({
        method: 'PUT',
        url: '/capture/v1/media/selfie',
        headers: { authorization: `Bearer ${s.session_token}`, 'content-type': 'image/jpeg' },
        payload: jpeg,
      }),
      await t.call('GET', '/capture/v1/session', { key: s.session_token }),
    ];
    assert.equal(answers[0]!.statusCode, 409);
    assert.equal(answers[1]!.statusCode, 409);
    assert.equal(answers[2]!.json().status, 'complete');
    for (const a of answers) assert.doesNotMatch(a.body, /approved|declined|referred/, `${decided}: ${a.body}`);
  }
});
