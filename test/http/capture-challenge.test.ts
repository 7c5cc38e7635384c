import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { buildJobHandlers } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/platform/jobs.js';
import { Sealer } from '../../src/platform/crypto.js';
import { CHALLENGE_ACTIONS } from '../../src/engines/face/index.js';
import { randomActions } from '../../src/modules/capture/liveness-challenge.js';
import { planeHomography } from '../../src/engines/face/flatness.js';
import { warpPerspective } from '../../bench/lib/planar-warp.js';

/**
 * The active liveness challenge through the capture API: the server picks the sequence, frames are
 * bound to the current challenge and its lifetime, submission needs every frame, and the pipeline
 * judges the frames against the sequence (a flat photo turned in front of the camera fails).
 */
let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const dataDir = sharedDataDir();
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);
const frame = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#886655' } })
    .jpeg()
    .toBuffer();

async function journey(owner: Tenant, key: string, challenge: boolean): Promise<void> {
  const body = {
    key,
    name: key,
    publish: true,
    definition: {
      checks: [{ type: 'liveness', settings: { challenge } }],
      decision_rules: {
        decline: [{ check: 'liveness', statuses: ['failed'] }],
        refer: [{ check: 'liveness', statuses: ['needs_review'] }],
        decline_at_band: null,
        refer_at_band: null,
      },
      risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
      session_lifetime_seconds: 3600,
    },
  };
  const res = await t.call('POST', '/v1/journeys', { key: owner.sandboxKey, body });
  assert.equal(res.statusCode, 201, res.body);
}
async function session(owner: Tenant, journeyKey: string): Promise<{ id: string; session_token: string }> {
  const res = await t.call('POST', '/v1/verifications', {
    key: owner.sandboxKey,
    body: { journey: journeyKey, subject: { type: 'individual', reference: 'cust_challenge' } },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}
const issue = (token: string) => t.call('POST', '/capture/v1/challenge', { key: token });
const putFrame = (token: string, index: number | string, data: Buffer) =>
  t.app.inject({
    method: 'PUT',
    url: `/capture/v1/challenge/frames/${index}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    payload: data,
  });
const view = async (token: string) => (await t.call('GET', '/capture/v1/session', { key: token })).json();

test('the server draws every sequence of three actions with none twice in a row, and no other', () => {
  const seen = new Map<string, number>();
  for (let i = 0; i < 3600; i++) {
    const a = randomActions();
    assert.equal(a.length, 3);
    assert.ok(
      a.every((x, k) => (CHALLENGE_ACTIONS as readonly string[]).includes(x) && (k === 0 || x !== a[k - 1])),
      a.join(','),
    );
    seen.set(a.join(','), (seen.get(a.join(',')) ?? 0) + 1);
  }
  assert.equal(seen.size, 36);
  // 100 expected each; a draw that favoured some sequences (say one action never first) would fall far outside.
  assert.ok(Math.min(...seen.values()) > 50 && Math.max(...seen.values()) < 160, JSON.stringify([...seen.values()]));
});

describe('liveness challenge in the capture API', () => {
  test('the journey asks for a challenge step; frames need an issued, unexpired challenge; submit needs them all', async () => {
    const owner = await t.tenant();
    await journey(owner, 'active_liveness', true);
    const s = await session(owner, 'active_liveness');
    const v = await view(s.session_token);
    assert.deepEqual(
      v.steps.map((x: { kind: string; captured: boolean }) => [x.kind, x.captured]),
      [['liveness_challenge', false]],
    );
    const early = await putFrame(s.session_token, 0, await frame());
    assert.equal(early.statusCode, 409, 'no challenge requested yet');
    const none = await t.call('POST', '/capture/v1/submit', { key: s.session_token });
    assert.equal(none.statusCode, 400);
    assert.equal(none.json().error.field, 'liveness_challenge');

    const res = await issue(s.session_token);
    assert.equal(res.statusCode, 201, res.body);
    const c = res.json();
    assert.match(c.challenge_id, /^chl_[0-9a-f]{24}$/);
    assert.equal(c.actions.length, 3);
    assert.ok(
      c.actions.every((a: string, i: number) => i === 0 || a !== c.actions[i - 1]),
      'no action twice in a row',
    );
    assert.ok(c.actions.every((a: string) => (CHALLENGE_ACTIONS as readonly string[]).includes(a)));
    assert.equal(c.frame_count, 10);
    assert.equal(c.frames_per_action, 3);
    const [row] = await t.db.query<{ liveness_challenge: { id: string; actions: string[] } }>(
      'SELECT liveness_challenge FROM sessions WHERE id = $1',
      [s.id],
    );
    assert.deepEqual(row!.liveness_challenge.actions, c.actions, 'the sequence is stored with the session');

    assert.equal((await putFrame(s.session_token, 10, await frame())).statusCode, 400, 'index past the frame count');
    const notImage = await putFrame(s.session_token, 0, Buffer.from('%PDF-1.4 not a frame'));
    assert.equal(notImage.statusCode, 400);
    assert.equal(notImage.json().error.field, 'file');
    for (let i = 0; i < 9; i++) assert.equal((await putFrame(s.session_token, i, await frame())).statusCode, 201);
    const partial = await t.call('POST', '/capture/v1/submit', { key: s.session_token });
    assert.equal(partial.statusCode, 400, 'one frame missing');
    assert.equal(partial.json().error.field, 'liveness_challenge');
    const last = await putFrame(s.session_token, 9, await frame());
    assert.equal(last.statusCode, 201, last.body);
    assert.equal(last.json().challenge_id, c.challenge_id);
    assert.equal((await view(s.session_token)).steps[0].captured, true);

    // A new challenge replaces the sequence and retires the old frames: they cannot be reused.
    const again = (await issue(s.session_token)).json();
    assert.notEqual(again.challenge_id, c.challenge_id);
    assert.equal((await view(s.session_token)).steps[0].captured, false);
    const live = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM media WHERE session_id = $1 AND kind LIKE 'challenge_frame_%' AND deleted_at IS NULL",
      [s.id],
    );
    assert.equal(live[0]!.n, 0);

    // Past its lifetime the challenge takes no more frames.
    await t.db.query(
      "UPDATE sessions SET liveness_challenge = jsonb_set(liveness_challenge, '{issued_at}', to_jsonb((now() - interval '10 minutes')::text)) WHERE id = $1",
      [s.id],
    );
    const stale = await putFrame(s.session_token, 0, await frame());
    assert.equal(stale.statusCode, 409);
    assert.match(stale.json().error.message, /expired/);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [s.id]);
    assert.equal(audit.filter((a) => a.action === 'verification.liveness_challenge_issued').length, 2);
  });

  test('a journey without an active challenge refuses one (400 on liveness_challenge) and asks for a selfie', async () => {
    const owner = await t.tenant();
    await journey(owner, 'passive_liveness', false);
    const s = await session(owner, 'passive_liveness');
    assert.deepEqual(
      (await view(s.session_token)).steps.map((x: { kind: string }) => x.kind),
      ['selfie'],
    );
    const res = await issue(s.session_token);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.field, 'liveness_challenge');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/capture/v1/media/liveness_challenge',
      headers: { authorization: `Bearer ${s.session_token}`, 'content-type': 'image/jpeg' },
      payload: await frame(),
    });
    assert.equal(put.statusCode, 400, 'challenge frames never go through /media');
  });

  test('issuing honours Idempotency-Key: the replay returns the same challenge, a new key issues a new one', async () => {
    const owner = await t.tenant();
    await journey(owner, 'active_liveness_replay', true);
    const s = await session(owner, 'active_liveness_replay');
    const headers = { 'idempotency-key': 'challenge-1' };
    const first = await t.call('POST', '/capture/v1/challenge', { key: s.session_token, headers });
    assert.equal(first.statusCode, 201, first.body);
    const replay = await t.call('POST', '/capture/v1/challenge', { key: s.session_token, headers });
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.json(), first.json());
    const [row] = await t.db.query<{ liveness_challenge: { id: string } }>('SELECT liveness_challenge FROM sessions WHERE id = $1', [s.id]);
    assert.equal(row!.liveness_challenge.id, first.json().challenge_id, 'the replay issued nothing new');
    const other = await t.call('POST', '/capture/v1/challenge', {
      key: s.session_token,
      headers: { 'idempotency-key': 'challenge-2' },
    });
    assert.equal(other.statusCode, 201, other.body);
    assert.notEqual(other.json().challenge_id, first.json().challenge_id);
    const mismatch = await t.call('POST', '/capture/v1/challenge', {
      key: s.session_token,
      headers,
      body: { unexpected: true },
    });
    assert.equal(mismatch.statusCode, 400, 'this operation takes no body, whatever the key');
  });

  test('another session cannot use the token of this one; an API key is refused', async () => {
    const owner = await t.tenant();
    await journey(owner, 'active_liveness', true);
    const res = await t.call('POST', '/capture/v1/challenge', { key: owner.sandboxKey });
    assert.equal(res.statusCode, 401);
  });
});

describe('liveness challenge judged by the pipeline', { skip: dataDir ? false : MISSING_DATA }, () => {
  test('a photo held up and turned in front of the camera fails the challenge; the result names the sequence', async () => {
    const owner = await t.tenant();
    await journey(owner, 'active_liveness', true);
    const s = await session(owner, 'active_liveness');
    const c = (await issue(s.session_token)).json();
    const { data, info } = await sharp(face('img2.jpg')).resize({ width: 480 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const tilts = [0, 0.3, 0.15, -0.3, 0.25, -0.15, 0.3, -0.25, 0.1, -0.3];
    for (let i = 0; i < c.frame_count; i++) {
      const side = Math.max(info.width, info.height);
      const H = planeHomography(info.width, info.height, tilts[i]!, 0.05 * (i % 3), 1.2 * side, 1.6 * side);
      const jpeg = await sharp(warpPerspective(data, info.width, info.height, H), {
        raw: { width: info.width, height: info.height, channels: 3 },
      })
        .jpeg({ quality: 90 })
        .toBuffer();
      assert.equal((await putFrame(s.session_token, i, jpeg)).statusCode, 201);
    }
    assert.equal((await t.call('POST', '/capture/v1/submit', { key: s.session_token })).statusCode, 202);
    const sealer = new Sealer(t.config.masterKey);
    await new JobRunner({ db: t.db, handlers: buildJobHandlers({ db: t.db, config: t.config, resources: t.resources, sealer }) }).drain();
    const v = (await t.call('GET', `/v1/verifications/${s.id}`, { key: owner.sandboxKey })).json();
    assert.equal(v.decision, 'declined', JSON.stringify(v));
    const check = v.checks.find((x: { type: string }) => x.type === 'liveness');
    assert.equal(check.status, 'failed');
    const detail = (await t.call('GET', `/v1/checks/${check.id}`, { key: owner.sandboxKey })).json();
    assert.deepEqual(detail.result.challenge, c.actions);
    const signals = new Map(detail.signals.map((x: { name: string; passed: boolean | null }) => [x.name, x.passed]));
    assert.ok(signals.has('challenge_depth_residual') && signals.has('challenge_actions_performed'), JSON.stringify(detail.signals));
    assert.ok(signals.get('challenge_actions_performed') === false || signals.get('challenge_depth_residual') === false);
    const linked = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM media WHERE session_id = $1 AND kind LIKE 'challenge_frame_%' AND check_id = $2",
      [s.id, check.id],
    );
    assert.equal(linked[0]!.n, 10, 'the frames are linked to the liveness check');
  });
});
