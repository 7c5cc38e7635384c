import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTestApp, type TestApp, type Tenant } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { FACE_ENGINE } from '../../src/modules/checks/face/engine.js';
import { FACE_DUPLICATE_THRESHOLD } from '../../src/engines/face/index.js';
import { embeddingModelKey, FACE_INDEX } from '../../src/modules/checks/face/face-index-cache.js';
import { faceEnrollments, hasVectorColumn, newEnrollmentId } from '../../src/modules/checks/face/repository.js';

// The in-process index (face-index worker) by default on both databases; pgvector's HNSW when turned on and present (PGlite).
let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const dataDir = sharedDataDir();
const skip = dataDir ? false : MISSING_DATA;
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`).toString('base64');
const tiny = Buffer.from('not an image').toString('base64');

async function enrol(o: Tenant, image: string, subject: string): Promise<string> {
  const res = await t.call('POST', '/v1/checks/face-search/enrollments', {
    key: o.sandboxKey,
    body: { image: face(image), subject_reference: subject },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

const search = async (o: Tenant, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/checks/face-search', { key: o.sandboxKey, body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

routeSecurityTests('createFaceSearchCheck', () => t, {
  method: 'POST',
  url: () => '/v1/checks/face-search',
  scope: 'checks:write',
  body: { image: tiny },
  malformed: { body: { image: tiny, k: 0 }, field: 'k' },
});
routeSecurityTests('createFaceEnrollment', () => t, {
  method: 'POST',
  url: () => '/v1/checks/face-search/enrollments',
  scope: 'checks:write',
  body: { image: tiny, subject_reference: 'cus_1' },
  malformed: { body: { image: tiny }, field: 'subject_reference' },
});
if (dataDir) {
  const create = async (_t: TestApp, o: Tenant) => enrol(o, 'img5.jpg', 'cus_sec');
  routeSecurityTests('getFaceEnrollment', () => t, {
    method: 'GET',
    url: (id) => `/v1/checks/face-search/enrollments/${id}`,
    scope: 'checks:read',
    create,
  });
  routeSecurityTests('deleteFaceEnrollment', () => t, {
    method: 'DELETE',
    url: (id) => `/v1/checks/face-search/enrollments/${id}`,
    scope: 'checks:write',
    create,
  });
}

describe('face search over enrolled faces', { skip }, () => {
  test('enrol three people; another photo of one finds that subject first; a different subject with that face is a duplicate', async () => {
    const o = await t.tenant();
    const ids = {
      cus_1: await enrol(o, 'img5.jpg', 'cus_1'),
      cus_2: await enrol(o, 'img12.jpg', 'cus_2'),
      cus_3: await enrol(o, 'img50.jpg', 'cus_3'),
    };
    assert.match(ids.cus_1, /^fen_/);
    const [audit] = await t.db.query<{ action: string; resource_id: string }>(
      "SELECT action, resource_id FROM audit_events WHERE account_id = $1 AND action = 'face_enrollment.created' ORDER BY id LIMIT 1",
      [o.accountId],
    );
    assert.equal(audit?.resource_id, ids.cus_1);

    const loadsBefore = t.resources.get(FACE_INDEX).stats.fullLoads;
    const own = await search(o, { image: face('img6.jpg'), subject_reference: 'cus_1', k: 3 });
    assert.equal(own.type, 'face_search');
    // The route searched the process's index (the FACE_INDEX resource), which loaded this tenant's faces.
    assert.equal(t.resources.get(FACE_INDEX).stats.fullLoads, loadsBefore + 1);
    assert.equal(own.status, 'passed', JSON.stringify(own.signals));
    assert.equal(own.result.backend, 'in_process_index');
    assert.equal(own.result.hits.length, 3);
    assert.equal(own.result.hits[0].subject_reference, 'cus_1');
    assert.equal(own.result.hits[0].enrollment_id, ids.cus_1);
    assert.ok(own.result.hits[0].similarity > 0.75, JSON.stringify(own.result.hits));
    assert.ok(own.result.hits[1].similarity < FACE_DUPLICATE_THRESHOLD);
    assert.equal(own.signals.find((s: { name: string }) => s.name === 'face_matches_own_enrolment')?.passed, true);

    const dup = await search(o, { image: face('img6.jpg'), subject_reference: 'cus_new' });
    assert.equal(dup.status, 'needs_review');
    assert.deepEqual(dup.reasons, ['duplicate_face_other_subject']);
    assert.equal(dup.score, dup.result.hits[0].similarity);
    assert.equal(dup.result.hits[0].subject_reference, 'cus_1');

    const stranger = await search(o, { image: face('img17.jpg') });
    assert.equal(stranger.status, 'passed');
    assert.ok(stranger.score < FACE_DUPLICATE_THRESHOLD);

    const other = await t.tenant();
    assert.deepEqual((await search(other, { image: face('img6.jpg') })).result.hits, [], 'another tenant sees none of these faces');

    const del = await t.call('DELETE', `/v1/checks/face-search/enrollments/${ids.cus_1}`, { key: o.sandboxKey });
    assert.equal(del.statusCode, 200);
    assert.ok(del.json().deleted_at);
    const [row] = await t.db.query<{ embedding_bytes: Uint8Array | null }>('SELECT embedding_bytes FROM face_enrollments WHERE id = $1', [
      ids.cus_1,
    ]);
    assert.equal(row?.embedding_bytes, null, 'deleting erases the embedding');
    const after = await search(o, { image: face('img6.jpg'), subject_reference: 'cus_new' });
    assert.equal(after.status, 'passed');
    assert.ok(!after.result.hits.some((h: { enrollment_id: string }) => h.enrollment_id === ids.cus_1));
    assert.equal((await t.call('DELETE', `/v1/checks/face-search/enrollments/${ids.cus_1}`, { key: o.sandboxKey })).statusCode, 404);
  });

  test('a face enrolled by another process (straight into the table) is found on the next search', async () => {
    const o = await t.tenant();
    await enrol(o, 'img12.jpg', 'cus_2');
    assert.deepEqual(
      (await search(o, { image: face('img6.jpg') })).result.hits.map((h: { subject_reference: string }) => h.subject_reference),
      ['cus_2'],
    );
    const { embedding, model } = await t.resources.get(FACE_ENGINE).embed(readFileSync(`${dataDir}/faces/deepface_subset/images/img5.jpg`));
    await faceEnrollments.insert(t.db, o.ctx(), await hasVectorColumn(t.db), {
      id: newEnrollmentId(),
      subjectReference: 'cus_1',
      model: embeddingModelKey(model),
      embedding: embedding!,
    });
    const again = await search(o, { image: face('img6.jpg'), subject_reference: 'cus_9' });
    assert.equal(again.result.hits[0].subject_reference, 'cus_1');
    assert.equal(again.status, 'needs_review');
  });

  test('a photo without one clear face cannot be enrolled (422 naming image) and searches as failed', async () => {
    const o = await t.tenant();
    const blank = (
      await (
        await import('sharp')
      )
        .default({ create: { width: 300, height: 300, channels: 3, background: '#777' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const res = await t.call('POST', '/v1/checks/face-search/enrollments', {
      key: o.sandboxKey,
      body: { image: blank, subject_reference: 'cus_1' },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'check_unavailable');
    assert.equal(res.json().error.field, 'image');
    const s = await search(o, { image: blank });
    assert.equal(s.status, 'failed');
    assert.ok(s.reasons.includes('image_no_face'), s.reasons.join());
  });
});

describe('face search on pgvector when the operator turns it on', { skip: skip || false }, () => {
  test('FACE_SEARCH_PGVECTOR=true searches the HNSW index where the database has it, with the same answer', async (ctx) => {
    const other = await createTestApp({ env: { FACE_SEARCH_PGVECTOR: 'true' } });
    try {
      if (!other.db.hasVector) {
        ctx.skip('this database has no pgvector: the in-process index serves it');
        return;
      }
      const o = await other.tenant();
      for (const [img, subject] of [
        ['img5.jpg', 'cus_1'],
        ['img12.jpg', 'cus_2'],
      ] as const) {
        const res = await other.call('POST', '/v1/checks/face-search/enrollments', {
          key: o.sandboxKey,
          body: { image: face(img), subject_reference: subject },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      const res = await other.call('POST', '/v1/checks/face-search', { key: o.sandboxKey, body: { image: face('img6.jpg'), k: 2 } });
      assert.equal(res.statusCode, 200, res.body);
      const r = res.json().result;
      assert.equal(r.backend, 'pgvector_hnsw');
      assert.deepEqual(
        r.hits.map((h: { subject_reference: string }) => h.subject_reference),
        ['cus_1', 'cus_2'],
      );
      assert.ok(r.hits[0].similarity > 0.75);
    } finally {
      await other.close();
    }
  });
});
