import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp, activateTestList } from '../helpers/test-app.js';
import { routeSecurityTests } from '../helpers/route-security.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { importRegistryFile } from '../../src/modules/businesses/index.js';
import { validatePackage } from '../../src/providers/registries/index.js';
import { SCREENING_INDEX } from '../../src/modules/checks/index.js';

const fixture = (f: string) => new URL(`../../src/providers/registries/fixtures/${f}`, import.meta.url).pathname;

let t: TestApp;
before(async () => {
  t = await createTestApp();
  for (const [file, format] of [
    ['gleif-lei.csv', 'gleif-lei-csv'],
    ['gleif-rr.csv', 'gleif-rr-csv'],
    ['gleif-repex.csv', 'gleif-repex-csv'],
    ['gb-companies.csv', 'gb-coh-companies-csv'],
    ['psc-stream.jsonl', 'gb-coh-psc'],
    ['bods-package.json', 'bods'],
    ['bods-sanctioned-owner.json', 'bods'],
  ] as const) {
    const r = await importRegistryFile(t.db, { path: fixture(file), format });
    assert.equal(r.ok, true, r.error);
  }
});
after(() => t.close());

const createFrom = async (key: string, source: string, source_ref: string, reference?: string) =>
  t.call('POST', '/v1/businesses', { key, body: { source, source_ref, ...(reference ? { reference } : {}) } });

test('search: an exact number ranks first, names match across legal forms, filters and pagination apply', async () => {
  const { sandboxKey: key } = await t.tenant();
  const byNumber = await t.call('POST', '/v1/businesses/search', {
    key,
    body: { registration_number: '06528297', query: 'Example Holdings' },
  });
  assert.equal(byNumber.statusCode, 200, byNumber.body);
  const rows = byNumber.json().data as { source: string; source_ref: string; match: { score: number; matched_on: string[] } }[];
  // Both registers' records of the company carry the number; they rank above name-only matches.
  assert.deepEqual(
    rows
      .slice(0, 2)
      .map((r) => [r.source, r.source_ref, r.match.matched_on.includes('registration_number')])
      .sort(),
    [
      ['gb_coh', '06528297', true],
      ['gleif', '254900LNRYNOQ9YPU758', true],
    ],
  );
  assert.ok(rows.length > 2);
  assert.ok(rows.slice(2).every((r) => r.match.score < 1 && !r.match.matched_on.includes('registration_number')));

  const byName = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'example trading ltd', sources: ['gb_coh'] } });
  const top = byName.json().data[0];
  assert.deepEqual([top.source_ref, top.name, top.match.matched_on], ['06528297', 'EXAMPLE TRADING LIMITED', ['name']]);
  assert.ok(top.match.score >= 0.9, String(top.match.score));

  const dissolved = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Old Widgets' } });
  assert.equal(dissolved.json().data.length, 0);
  const withInactive = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Old Widgets', include_inactive: true } });
  assert.equal(withInactive.json().data[0].status, 'dissolved');

  const page1 = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Example', limit: 1 } });
  assert.equal(page1.json().data.length, 1);
  const cursor = page1.json().next_cursor as string;
  assert.ok(cursor);
  const page2 = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Example', limit: 1, cursor } });
  assert.notEqual(
    page2.json().data[0].source_ref + page2.json().data[0].source,
    page1.json().data[0].source_ref + page1.json().data[0].source,
  );
  const otherQuery = await t.call('POST', '/v1/businesses/search', { key, body: { query: 'Alpha', limit: 1, cursor } });
  assert.equal(otherQuery.statusCode, 400);
  assert.equal(otherQuery.json().error.field, 'cursor');

  const empty = await t.call('POST', '/v1/businesses/search', { key, body: { country: 'GB' } });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().error.field, 'query');
});

test('create from a search result: 201 with audit and event rows, the same entry again is 200 with the same record', async () => {
  const owner = await t.tenant();
  const res = await createFrom(owner.sandboxKey, 'gb_coh', '06528297', 'cust-42');
  assert.equal(res.statusCode, 201, res.body);
  const b = res.json();
  assert.match(b.id, /^biz_/);
  assert.deepEqual([b.reference, b.name, b.status, b.incorporation_date], ['cust-42', 'EXAMPLE TRADING LIMITED', 'active', '2008-03-08']);
  assert.deepEqual(
    b.officers
      .map((o: { name: string; role: string; birth_date: unknown; resigned_on: string | null }) => [
        o.name,
        o.role,
        o.birth_date,
        o.resigned_on,
      ])
      .sort(),
    [
      ['Mr Old Owner', 'psc', null, '2016-04-05'],
      ['Ms Ada Example', 'psc', { year: 1970, month: 4 }, null],
    ],
  );
  const ada = b.ownership.edges.find((e: { from: string }) => e.from === 'psc-party:ada1');
  assert.deepEqual(ada.interests[0].share, { exclusive_minimum: 25, maximum: 50 });
  assert.match(ada.source, /^gb_coh:rimp_/);
  assert.ok(b.sources.some((s: { file_name: string }) => s.file_name === 'psc-stream.jsonl'));

  const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1', [b.id]);
  assert.deepEqual(
    audit.map((a) => a.action),
    ['business.created'],
  );
  const events = await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1', [b.id]);
  assert.deepEqual(
    events.map((e) => e.type),
    ['business.created'],
  );

  const again = await createFrom(owner.sandboxKey, 'gb_coh', '06528297');
  assert.deepEqual([again.statusCode, again.json().id], [200, b.id]);
  assert.equal((await t.db.query('SELECT 1 FROM events WHERE resource_id = $1', [b.id])).length, 1);

  const missing = await createFrom(owner.sandboxKey, 'gleif', '00000000000000000000');
  assert.deepEqual([missing.statusCode, missing.json().error.field], [404, 'source_ref']);
  const both = await t.call('POST', '/v1/businesses', {
    key: owner.sandboxKey,
    body: { source: 'gleif', source_ref: 'x', manual: { name: 'X' } },
  });
  assert.deepEqual([both.statusCode, both.json().error.field], [400, 'manual']);
  const manual = await t.call('POST', '/v1/businesses', {
    key: owner.sandboxKey,
    body: { manual: { name: 'Corner Shop', country: 'FR' }, reference: 'm1' },
  });
  assert.equal(manual.statusCode, 201);
  assert.deepEqual(
    [manual.json().source, manual.json().name, manual.json().country, manual.json().ownership.edges],
    ['manual', 'Corner Shop', 'FR', []],
  );
});

test('ubos: PSC band qualifies at 25 %, as_of brings back a ceased owner, basis and threshold apply', async () => {
  const { sandboxKey: key } = await t.tenant();
  const id = (await createFrom(key, 'gb_coh', '06528297')).json().id as string;
  const now = await t.call('GET', `/v1/businesses/${id}/ubos?as_of=2024-01-01`, { key });
  assert.equal(now.statusCode, 200, now.body);
  const ada = now.json().owners.find((o: { name: string }) => o.name === 'Ms Ada Example');
  assert.deepEqual(
    [ada.ownership, ada.qualifies, ada.reasons, ada.figure_basis],
    [{ exclusive_minimum: 25, maximum: 50 }, true, ['ownership_gt_threshold', 'voting_gt_threshold'], 'declared'],
  );
  assert.deepEqual(ada.paths[0].node_ids, ['psc-party:ada1', '06528297']);
  // The corporate PSC (a UK plc not on file as a company) has no owners in Companies House; its LEI record
  // (same company number) reports NO_KNOWN_PERSON for its ultimate parent: the walk crosses to it and stops there.
  assert.deepEqual(
    now.json().unresolved.map((u: { node_id: string; reason: string }) => [u.node_id, u.reason]),
    [['gleif:5493001KJTIIGC8Y1R12', 'no_known_person']],
  );
  const past = await t.call('GET', `/v1/businesses/${id}/ubos?as_of=2015-06-01`, { key });
  assert.deepEqual(
    past.json().owners.map((o: { name: string; qualifies: boolean }) => [o.name, o.qualifies]),
    [['Mr Old Owner', true]],
  );
  const at50 = await t.call('GET', `/v1/businesses/${id}/ubos?as_of=2024-01-01&threshold=50&basis=ownership`, { key });
  const ada50 = at50.json().owners.find((o: { name: string }) => o.name === 'Ms Ada Example');
  assert.deepEqual([ada50.qualifies, ada50.possibly_qualifies], [false, false]);
  const bad = await t.call('GET', `/v1/businesses/${id}/ubos?basis=everything`, { key });
  assert.deepEqual([bad.statusCode, bad.json().error.field], [400, 'basis']);
});

test('ubos through a chain (BODS): computed range with exclusive bound, unknown holder unresolved, GLEIF NON_PUBLIC parent', async () => {
  const { sandboxKey: key } = await t.tenant();
  const a = (await createFrom(key, 'bods', 'ent-a')).json();
  const u = (await t.call('GET', `/v1/businesses/${a.id}/ubos?as_of=2024-06-01`, { key })).json();
  const carla = u.owners.find((o: { name: string }) => o.name === 'Carla Owner');
  assert.deepEqual(
    [carla.ownership, carla.qualifies, carla.paths[0].node_ids],
    [{ exclusive_minimum: 40, maximum: 60 }, true, ['per-1', 'ent-b', 'ent-a']],
  );
  assert.deepEqual(
    u.unresolved.map((x: { reason: string; detail: string }) => [x.reason, x.detail]),
    [['unknown_person', 'informationUnknownToPublisher']],
  );
  assert.equal(a.officers.find((o: { name: string }) => o.name === 'Dan Director')?.role, 'senior_managing_official');

  const g = (await createFrom(key, 'gleif', '254900LNRYNOQ9YPU758')).json();
  assert.equal(g.registration_status, 'LAPSED');
  assert.deepEqual(
    g.ownership.exceptions.map((x: { subject: string; category: string; reason: string }) => [x.subject, x.category, x.reason]),
    [
      ['254900LNRYNOQ9YPU758', 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'],
      ['5493001KJTIIGC8Y1R12', 'ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT', 'NO_KNOWN_PERSON'],
    ],
  );
  const gu = (await t.call('GET', `/v1/businesses/${g.id}/ubos`, { key })).json();
  assert.deepEqual(gu.unresolved.map((x: { node_id: string; reason: string }) => [x.node_id, x.reason]).sort(), [
    ['5493001KJTIIGC8Y1R12', 'no_known_person'],
    ['exception:254900LNRYNOQ9YPU758|DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'non_public'],
  ]);
});

const create = async (t: TestApp, owner: { sandboxKey: string }) =>
  (await createFrom(owner.sandboxKey, 'bods', 'ent-a')).json().id as string;

routeSecurityTests('searchBusinesses', () => t, {
  method: 'POST',
  url: () => '/v1/businesses/search',
  scope: 'businesses:read',
  body: { query: 'Example' },
  malformed: { body: { query: 'Example', lei: 'short' }, field: 'lei' },
});
routeSecurityTests('createBusiness', () => t, {
  method: 'POST',
  url: () => '/v1/businesses',
  scope: 'businesses:write',
  body: { manual: { name: 'Security Co' } },
  malformed: { body: { manual: { name: 'X', colour: 'red' } }, field: 'manual.colour' },
});
routeSecurityTests('getBusiness', () => t, {
  method: 'GET',
  url: (id) => `/v1/businesses/${id}`,
  scope: 'businesses:read',
  create,
});
routeSecurityTests('getBusinessUbos', () => t, {
  method: 'GET',
  url: (id) => `/v1/businesses/${id}/ubos`,
  scope: 'businesses:read',
  create,
});

test('re-import with a changed owner: business.ownership_changed event, audit row and a business_ownership alert; a bad file changes nothing', async () => {
  const { runRegistriesCommand } = await import('../../src/modules/businesses/index.js');
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const owner = await t.tenant();
  const b = (await createFrom(owner.sandboxKey, 'gb_coh', '06528297', 'watch-me')).json();
  const dir = mkdtempSync(join(tmpdir(), 'kyb-'));
  const updated = join(dir, 'psc-update.jsonl');
  writeFileSync(
    updated,
    readFileSync(fixture('psc-stream.jsonl'), 'utf8').replace(
      'ownership-of-shares-25-to-50-percent',
      'ownership-of-shares-50-to-75-percent',
    ),
  );
  const out: string[] = [],
    err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  assert.equal(
    await runRegistriesCommand(t.db, 'import', { positionals: [updated], format: 'gb-coh-psc', json: false }, io),
    0,
    err.join('\n'),
  );
  assert.match(
    out.at(-1)!,
    /imported psc-update\.jsonl as batch rimp_\w+ \(gb_coh, published 2024-11-22\): 5 records read; .*skipped: 1 unknown kind future-kind-of-record, 1 totals line; \d+ business\.ownership_changed events/,
  );

  const events = await t.db.query<{ type: string; data: { batch_id: string } }>(
    `SELECT type, data FROM events WHERE resource_id = $1 ORDER BY id`,
    [b.id],
  );
  assert.deepEqual(
    events.map((e) => e.type),
    ['business.created', 'business.ownership_changed'],
  );
  const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY id', [b.id]);
  assert.deepEqual(
    audit.map((a) => a.action),
    ['business.created', 'business.ownership_changed'],
  );
  const alerts = await t.db.query<{ kind: string }>(`SELECT kind FROM alerts WHERE account_id = $1 AND subject_id = $2`, [
    owner.accountId,
    b.id,
  ]);
  assert.deepEqual(
    alerts.map((a) => a.kind),
    ['business_ownership'],
  );
  const ubos = (await t.call('GET', `/v1/businesses/${b.id}/ubos?as_of=2024-01-01`, { key: owner.sandboxKey })).json();
  // "more than 50% but less than 75%" (Companies House's 50-to-75 band)
  assert.deepEqual(ubos.owners.find((o: { name: string }) => o.name === 'Ms Ada Example').ownership, {
    exclusive_minimum: 50,
    exclusive_maximum: 75,
  });

  // The same file again: recognised, nothing written, no event.
  out.length = 0;
  assert.equal(await runRegistriesCommand(t.db, 'import', { positionals: [updated], format: 'gb-coh-psc', json: false }, io), 0);
  assert.match(out[0]!, /already imported as batch/);
  // A truncated line: exit 1, file and line named, the registry unchanged.
  const broken = join(dir, 'psc-broken.jsonl');
  writeFileSync(
    broken,
    readFileSync(fixture('psc-stream.jsonl'), 'utf8')
      .replace('ownership-of-shares-25-to-50-percent', 'ownership-of-shares-75-to-100-percent')
      .slice(0, -200),
  );
  err.length = 0;
  assert.equal(await runRegistriesCommand(t.db, 'import', { positionals: [broken], format: 'gb-coh-psc', json: false }, io), 1);
  assert.match(err[0]!, /^error: psc-broken\.jsonl:4: invalid JSON.*nothing was imported/);
  const after = (await t.call('GET', `/v1/businesses/${b.id}/ubos?as_of=2024-01-01`, { key: owner.sandboxKey })).json();
  assert.deepEqual(after.owners.find((o: { name: string }) => o.name === 'Ms Ada Example').ownership, {
    exclusive_minimum: 50,
    exclusive_maximum: 75,
  });
  assert.equal((await t.db.query(`SELECT 1 FROM events WHERE resource_id = $1`, [b.id])).length, 2);
});

test('screening at creation: a listed 60 % owner meets the OFAC 50 % rule; business.screening_hit event and a business_screening alert', async () => {
  const owner = await t.tenant();
  const res = await createFrom(owner.sandboxKey, 'bods', 'ent-harbour', 'harbour');
  assert.equal(res.statusCode, 201, res.body);
  const s = res.json().screening;
  const byNode = Object.fromEntries(s.parties.map((p: { node_id: string; status: string }) => [p.node_id, p.status]));
  assert.equal(byNode['per-clean'], 'no_match');
  assert.notEqual(byNode['ent-sbx'], 'no_match');
  const exposure = byNode['ent-sbx'] === 'match' ? s.sanctions_exposure : s.sanctions_exposure_if_potential_confirmed;
  assert.deepEqual([exposure.listed_ownership, exposure.ofac_50_percent_rule, exposure.controlled_by_listed], [{ exact: 60 }, 'met', true]);
  const id = res.json().id as string;
  const events = await t.db.query<{ type: string }>('SELECT type FROM events WHERE resource_id = $1 ORDER BY id', [id]);
  assert.deepEqual(
    events.map((e) => e.type),
    ['business.created', 'business.screening_hit'],
  );
  const alerts = await t.db.query<{ kind: string }>('SELECT kind FROM alerts WHERE account_id = $1 AND subject_id = $2', [
    owner.accountId,
    id,
  ]);
  assert.deepEqual(
    alerts.map((a) => a.kind),
    ['business_screening'],
  );

  // The clean business: screened, nothing raised; screen:false skips it.
  const clean = (await createFrom(owner.sandboxKey, 'gb_coh', '06528297')).json();
  assert.equal(clean.screening.status, 'no_match');
  assert.equal(clean.screening.sanctions_exposure.ofac_50_percent_rule, 'not_met');
  const skipped = await t.call('POST', '/v1/businesses', {
    key: owner.sandboxKey,
    body: { source: 'bods', source_ref: 'ent-a', screen: false },
  });
  assert.equal(skipped.json().screening, null);
});

async function pdf(lines: string[]): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((l, i) => page.drawText(l, { x: 50, y: 780 - i * 24, size: 12, font }));
  return Buffer.from(await doc.save()).toString('base64');
}

test('documents: a certificate of incorporation matching the record is verified; a wrong number or an unknown document needs review', async () => {
  const owner = await t.tenant();
  const b = (await createFrom(owner.sandboxKey, 'gb_coh', '06528297')).json();
  const cert = await pdf([
    'CERTIFICATE OF INCORPORATION',
    'OF A PRIVATE LIMITED COMPANY',
    'Company Number 06528297',
    'The Registrar of Companies for England and Wales hereby certifies that',
    'EXAMPLE TRADING LIMITED',
    'is this day incorporated under the Companies Act 2006 as a private company.',
    'Given at Companies House on 8 March 2008',
  ]);
  const ok = await t.call('POST', `/v1/businesses/${b.id}/documents`, {
    key: owner.sandboxKey,
    body: { file: cert, declared_type: 'certificate_of_incorporation' },
  });
  assert.equal(ok.statusCode, 201, ok.body);
  const d = ok.json();
  assert.match(d.id, /^bdoc_/);
  assert.deepEqual([d.type, d.category, d.status, d.reasons], ['certificate_of_incorporation', 'proof_of_registration', 'verified', []]);
  assert.deepEqual(
    [d.extracted.company_number, d.cross_checks.number_matches_record, d.cross_checks.name_matches_record],
    ['06528297', true, true],
  );
  const events = await t.db.query<{ type: string }>(
    `SELECT type FROM events WHERE resource_id = $1 AND type = 'business.document_classified'`,
    [b.id],
  );
  assert.equal(events.length, 1);
  const audit = await t.db.query<{ action: string }>(
    `SELECT action FROM audit_events WHERE resource_id = $1 AND action = 'business.document_attached'`,
    [b.id],
  );
  assert.equal(audit.length, 1);

  const wrong = await pdf(['CERTIFICATE OF INCORPORATION', 'Company Number 01234567', 'EXAMPLE TRADING LIMITED']);
  const w = (await t.call('POST', `/v1/businesses/${b.id}/documents`, { key: owner.sandboxKey, body: { file: wrong } })).json();
  assert.deepEqual([w.status, w.reasons.includes('company_number_mismatch')], ['needs_review', true]);

  const other = await pdf(['Minutes of a meeting about the summer party', 'Nothing else of note']);
  const o = (await t.call('POST', `/v1/businesses/${b.id}/documents`, { key: owner.sandboxKey, body: { file: other } })).json();
  assert.deepEqual([o.status, o.type, o.reasons.includes('document_type_unrecognised')], ['needs_review', null, true]);

  const notPdf = await t.call('POST', `/v1/businesses/${b.id}/documents`, {
    key: owner.sandboxKey,
    body: { file: Buffer.from('hello').toString('base64') },
  });
  assert.deepEqual([notPdf.statusCode, notPdf.json().error.field], [400, 'file']);
});

routeSecurityTests('attachBusinessDocument', () => t, {
  method: 'POST',
  url: (id) => `/v1/businesses/${id}/documents`,
  scope: 'businesses:write',
  body: { file: Buffer.from('%PDF-1.4 nothing').toString('base64') },
  create,
  malformed: { body: { file: 'x', declared_type: 'menu' }, field: 'declared_type' },
});

test('BODS export: every statement of a PSC, a GLEIF and a BODS business passes the BODS 0.4 schema, shares kept with their exclusive bounds', async () => {
  const { sandboxKey: key } = await t.tenant();
  for (const [source, ref] of [
    ['gb_coh', '06528297'],
    ['gleif', '254900LNRYNOQ9YPU758'],
    ['bods', 'ent-a'],
  ]) {
    const b = (await createFrom(key, source!, ref!)).json();
    const res = await t.call('GET', `/v1/businesses/${b.id}/bods`, { key });
    assert.equal(res.statusCode, 200, res.body);
    const statements = res.json() as { recordType: string }[];
    assert.deepEqual(validatePackage(statements), [], `${source} ${JSON.stringify(validatePackage(statements)).slice(0, 300)}`);
    assert.ok(
      statements.some((s) => s.recordType === 'relationship'),
      source,
    );
  }
  const a = (await createFrom(key, 'bods', 'ent-a')).json();
  const exported = (await t.call('GET', `/v1/businesses/${a.id}/bods`, { key })).json() as {
    recordDetails: { interests?: { share?: unknown }[] };
  }[];
  const shares = exported
    .flatMap((s) => s.recordDetails.interests ?? [])
    .map((i) => i.share)
    .filter(Boolean);
  assert.deepEqual(shares.map((x) => JSON.stringify(x)).sort(), ['{"exact":20}', '{"exact":80}', '{"exclusiveMinimum":50,"maximum":75}']);
});
routeSecurityTests('exportBusinessBods', () => t, {
  method: 'GET',
  url: (id) => `/v1/businesses/${id}/bods`,
  scope: 'businesses:read',
  create,
});

routeSecurityTests('createBusinessPersonVerification', () => t, {
  method: 'POST',
  url: (id) => `/v1/businesses/${id}/persons/per-1/verifications`,
  scope: 'verifications:write',
  body: { journey: 'kyc_standard' },
  create,
  malformed: { body: { journey: 'kyc_standard', colour: 'red' }, field: 'colour' },
});

test('UBO → KYC: a PSC is sent through a verification session; the record and the UBO list show its status; bad persons refused', async () => {
  const owner = await t.tenant();
  const key = owner.sandboxKey;
  const b = (await createFrom(key, 'gb_coh', '06528297', 'acme-uk')).json();
  const ada = 'psc-party:ada1';
  const r = await t.call('POST', `/v1/businesses/${b.id}/persons/${encodeURIComponent(ada)}/verifications`, {
    key,
    body: { journey: 'kyc_standard' },
  });
  assert.equal(r.statusCode, 201, r.body);
  const v = r.json();
  assert.deepEqual([v.object, v.status, v.subject.reference], ['verification', 'awaiting_subject', `acme-uk:${ada}`]);
  assert.ok(v.session_token && v.hosted_url);
  // The session is an ordinary verification, with the registered name declared.
  const got = await t.call('GET', `/v1/verifications/${v.id}`, { key });
  assert.equal(got.statusCode, 200);
  const link = await t.db.query<{ business_id: string }>(`SELECT business_id FROM business_person_verifications WHERE session_id = $1`, [
    v.id,
  ]);
  assert.deepEqual(
    link.map((l) => l.business_id),
    [b.id],
  );
  const audit = await t.db.query(`SELECT 1 FROM audit_events WHERE action = 'business.person_verification_created' AND resource_id = $1`, [
    b.id,
  ]);
  assert.equal(audit.length, 1);

  const rec = (await t.call('GET', `/v1/businesses/${b.id}`, { key })).json();
  const officer = rec.officers.find((o: { node_id: string }) => o.node_id === ada);
  assert.deepEqual([officer.verification.id, officer.verification.status, officer.verification.decision], [v.id, 'awaiting_subject', null]);
  assert.ok(
    rec.officers.filter((o: { node_id: string }) => o.node_id !== ada).every((o: { verification: unknown }) => o.verification === null),
  );
  const ubos = (await t.call('GET', `/v1/businesses/${b.id}/ubos?as_of=2024-01-01`, { key })).json();
  assert.equal(ubos.owners.find((o: { node_id: string }) => o.node_id === ada).verification.id, v.id);

  // A second session for the same person: the latest is shown.
  const again = await t.call('POST', `/v1/businesses/${b.id}/persons/${encodeURIComponent(ada)}/verifications`, {
    key,
    body: { journey: 'kyc_standard', subject_reference: 'ada-2' },
  });
  assert.equal(again.json().subject.reference, 'ada-2');
  const rec2 = (await t.call('GET', `/v1/businesses/${b.id}`, { key })).json();
  assert.equal(rec2.officers.find((o: { node_id: string }) => o.node_id === ada).verification.id, again.json().id);

  for (const [node, status, field] of [
    ['nobody', 404, 'node_id'],
    ['psc-party:corp1', 404, 'node_id'], // a corporate owner is not a person
  ] as const) {
    const bad = await t.call('POST', `/v1/businesses/${b.id}/persons/${encodeURIComponent(node)}/verifications`, {
      key,
      body: { journey: 'kyc_standard' },
    });
    assert.deepEqual([bad.statusCode, bad.json().error.field], [status, field], node);
  }
  const noJourney = await t.call('POST', `/v1/businesses/${b.id}/persons/${encodeURIComponent(ada)}/verifications`, {
    key,
    body: { journey: 'no_such_journey' },
  });
  assert.deepEqual([noJourney.statusCode, noJourney.json().error.field], [400, 'journey']);
  const n = await t.db.query(`SELECT 1 FROM business_person_verifications WHERE business_id = $1`, [b.id]);
  assert.equal(n.length, 2, 'a refused request links nothing');
});

test('UBO → KYC honours Idempotency-Key: the replay returns the first session and links nothing new', async () => {
  const owner = await t.tenant();
  const key = owner.sandboxKey;
  const b = (await createFrom(key, 'gb_coh', '06528297', 'acme-replay')).json();
  const url = `/v1/businesses/${b.id}/persons/${encodeURIComponent('psc-party:ada1')}/verifications`;
  const headers = { 'idempotency-key': 'ubo-kyc-1' };
  const first = await t.call('POST', url, { key, body: { journey: 'kyc_standard' }, headers });
  assert.equal(first.statusCode, 201, first.body);
  const replay = await t.call('POST', url, { key, body: { journey: 'kyc_standard' }, headers });
  assert.equal(replay.statusCode, 201, replay.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.json(), first.json());
  const links = await t.db.query(`SELECT 1 FROM business_person_verifications WHERE business_id = $1`, [b.id]);
  assert.equal(links.length, 1, 'one session linked');
  const sessions = await t.db.query(`SELECT 1 FROM sessions WHERE account_id = $1`, [owner.accountId]);
  assert.equal(sessions.length, 1, 'one session created');
  const mismatch = await t.call('POST', url, { key, body: { journey: 'kyc_standard', subject_reference: 'other' }, headers });
  assert.deepEqual([mismatch.statusCode, mismatch.json().error.field], [400, 'Idempotency-Key']);
});

test('re-screening after a list update: a new listed owner raises business.screening_hit (list_update) and an alert once', async () => {
  const { rescreenBusinessesOnListUpdate } = await import('../../src/modules/businesses/index.js');
  const { Sealer } = await import('../../src/platform/crypto.js');
  const sealer = new Sealer(t.config.masterKey);
  const owner = await t.tenant();
  const b = (await createFrom(owner.sandboxKey, 'gb_coh', '06528297', 'rescreen-me')).json();
  assert.equal(b.screening.status, 'no_match');
  // Everything screened so far is recorded as screened against the current lists.
  await rescreenBusinessesOnListUpdate(t.db, sealer, t.resources.get(SCREENING_INDEX));
  const quiet = await rescreenBusinessesOnListUpdate(t.db, sealer, t.resources.get(SCREENING_INDEX));
  assert.deepEqual([quiet.sources, quiet.screened], [[], 0]);

  await activateTestList(t, 'ofac_sdn', [
    {
      id: 'ofac-sdn:ada',
      source: 'ofac_sdn',
      datasets: ['sanctions'],
      schema: 'person',
      names: [{ full: 'Ada Example', quality: 'strong' }],
      birthDates: [],
      nationalities: [],
      countries: [],
      addresses: [],
      identifiers: [],
      programs: ['SDGT'],
    },
  ]);
  const run = await rescreenBusinessesOnListUpdate(t.db, sealer, t.resources.get(SCREENING_INDEX));
  assert.deepEqual(run.sources, ['ofac_sdn']);
  assert.ok(run.screened >= 1 && run.newHits >= 1, JSON.stringify(run));
  const events = await t.db.query<{ type: string; data: { trigger: string; parties: { node_id: string }[] } }>(
    `SELECT type, data FROM events WHERE resource_id = $1 ORDER BY id`,
    [b.id],
  );
  const hit = events.find((e) => e.type === 'business.screening_hit');
  assert.ok(hit, JSON.stringify(events.map((e) => e.type)));
  assert.equal(hit.data.trigger, 'list_update');
  assert.ok(hit.data.parties.some((p) => p.node_id === 'psc-party:ada1'));
  const alerts = await t.db.query(`SELECT 1 FROM alerts WHERE subject_id = $1 AND kind = 'business_screening'`, [b.id]);
  assert.equal(alerts.length, 1);
  const rec = (await t.call('GET', `/v1/businesses/${b.id}`, { key: owner.sandboxKey })).json();
  assert.notEqual(rec.screening.status, 'no_match');

  // Nothing switched since: nothing re-screened, nothing raised twice.
  const again = await rescreenBusinessesOnListUpdate(t.db, sealer, t.resources.get(SCREENING_INDEX));
  assert.deepEqual([again.sources, again.screened], [[], 0]);
  assert.equal((await t.db.query(`SELECT 1 FROM events WHERE resource_id = $1 AND type = 'business.screening_hit'`, [b.id])).length, 1);
});

test('a GLEIF change reaches a Companies House business whose graph crosses into it: ownership_changed, /ubos follows', async () => {
  const { runRegistriesCommand } = await import('../../src/modules/businesses/index.js');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { sandboxKey: key } = await t.tenant();
  const b = (await createFrom(key, 'gb_coh', '06528297', 'crosses')).json();
  const lei = '5493001KJTIIGC8Y1R12';
  const before = await t.call('GET', `/v1/businesses/${b.id}/ubos?as_of=2024-01-01`, { key });
  assert.deepEqual(
    before.json().unresolved.map((u: { node_id: string }) => u.node_id),
    [`gleif:${lei}`],
  );
  const path = join(mkdtempSync(join(tmpdir(), 'kyb-')), 'repex-delta.csv');
  // A delta withdraws the LEI's only reporting exception: nothing is recorded above it in GLEIF any more.
  writeFileSync(
    path,
    `LEI,ExceptionCategory,ExceptionReason.1,ExceptionReference.1,Extension.Deletion.DeletedAt\n${lei},ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT,NO_KNOWN_PERSON,,2024-06-01T00:00:00Z\n`,
  );
  const io = { out: () => undefined, err: () => undefined };
  assert.equal(await runRegistriesCommand(t.db, 'import', { positionals: [path], format: 'gleif-repex-csv', json: false }, io), 0);
  const events = await t.db.query<{ type: string }>(
    `SELECT type FROM events WHERE resource_id = $1 AND type = 'business.ownership_changed'`,
    [b.id],
  );
  assert.equal(events.length, 1);
  const after = await t.call('GET', `/v1/businesses/${b.id}/ubos?as_of=2024-01-01`, { key });
  assert.deepEqual(
    after.json().unresolved.map((u: { node_id: string; reason: string }) => [u.node_id, u.reason]),
    [['psc-party:corp1', 'no_known_person']],
  );
  const view = (await t.call('GET', `/v1/businesses/${b.id}`, { key })).json();
  assert.deepEqual(view.ownership.links, []);
});
