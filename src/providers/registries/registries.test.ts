import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, deflateRawSync } from 'node:zlib';
import { sharedData, SKIP_NO_DATA } from '../lists/fixtures/shared-data.js';
import {
  natureToInterest,
  newStats,
  registryFormats,
  RegistryFileError,
  validatePackage,
  validateStatement,
  UNSPECIFIED_REASONS,
  type RegistryRecord,
  type ParseStats,
} from './index.js';

const here = (f: string) => new URL(`./fixtures/${f}`, import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'registries-'));

async function read(format: string, path: string): Promise<{ records: RegistryRecord[]; stats: ParseStats }> {
  const stats = newStats();
  const records: RegistryRecord[] = [];
  for await (const r of registryFormats[format]!.parse(path, stats)) records.push(r);
  return { records, stats };
}

async function failure(format: string, path: string): Promise<RegistryFileError> {
  try {
    await read(format, path);
  } catch (e) {
    assert.ok(e instanceof RegistryFileError, `expected a RegistryFileError, got ${(e as Error).message}`);
    return e;
  }
  assert.fail(`${path} was accepted`);
}

test('GLEIF golden-copy CSV: LEI records, relationships (unknown types skipped and counted), reporting exceptions', async () => {
  const lei = await read('gleif-lei-csv', here('gleif-lei.csv'));
  assert.deepEqual(
    lei.records.map(
      (r) =>
        r.kind === 'entity' && [
          r.ref,
          r.name,
          r.registrationNumber,
          r.registrationAuthority,
          r.status,
          r.registrationStatus,
          r.incorporationDate,
        ],
    ),
    [
      ['5493001KJTIIGC8Y1R12', 'Example Holdings plc', '00000001', 'RA000585', 'active', 'ISSUED', '1990-01-01'],
      ['254900LNRYNOQ9YPU758', 'Example Trading Limited, UK', '06528297', 'RA000585', 'active', 'LAPSED', '2008-03-08'],
    ],
  );
  const rr = await read('gleif-rr-csv', here('gleif-rr.csv'));
  assert.equal(rr.records.length, 1);
  const rel = rr.records[0]!;
  assert.ok(rel.kind === 'relationship');
  assert.deepEqual(
    [rel.subject, rel.interestedParty, rel.interests[0]?.directOrIndirect, rel.interests[0]?.startDate],
    ['254900LNRYNOQ9YPU758', '5493001KJTIIGC8Y1R12', 'indirect', '2008-10-02'],
  );
  assert.deepEqual(rr.stats.skipped, { 'relationship type IS_SOMETHING_NEW': 1 });
  const repex = await read('gleif-repex-csv', here('gleif-repex.csv'));
  assert.deepEqual(
    repex.records.map((r) => r.kind === 'exception' && [r.subject, r.category, r.reason]),
    [
      ['254900LNRYNOQ9YPU758', 'DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC'],
      ['5493001KJTIIGC8Y1R12', 'ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT', 'NO_KNOWN_PERSON'],
    ],
  );
});

test('compressed input: .gz and a single-entry .zip read the same; a truncated zip names the file', async () => {
  const csv = readFileSync(here('gleif-lei.csv'));
  writeFileSync(join(tmp, 'lei.csv.gz'), gzipSync(csv));
  assert.equal((await read('gleif-lei-csv', join(tmp, 'lei.csv.gz'))).records.length, 2);
  const data = deflateRawSync(csv);
  const name = Buffer.from('lei.csv');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(csv.length, 22);
  header.writeUInt16LE(name.length, 26);
  const zip = Buffer.concat([header, name, data]);
  writeFileSync(join(tmp, 'lei.zip'), zip);
  assert.equal((await read('gleif-lei-csv', join(tmp, 'lei.zip'))).records.length, 2);
  writeFileSync(join(tmp, 'truncated.zip'), zip.subarray(0, header.length + name.length + Math.floor(data.length / 2)));
  const e = await failure('gleif-lei-csv', join(tmp, 'truncated.zip'));
  assert.equal(e.file, 'truncated.zip');
  assert.match(e.problem, /truncated or corrupt/);
});

test('bad files: wrong columns, a malformed LEI, an invalid JSON line, a BODS statement failing the schema', async () => {
  const cols = await failure('gleif-lei-csv', here('gleif-rr.csv'));
  assert.deepEqual([cols.file, cols.line], ['gleif-rr.csv', 1]);
  assert.match(cols.problem, /wrong columns: missing LEI/);

  writeFileSync(join(tmp, 'bad-lei.csv'), readFileSync(here('gleif-lei.csv'), 'utf8').replace('254900LNRYNOQ9YPU758', 'NOT-AN-LEI'));
  const lei = await failure('gleif-lei-csv', join(tmp, 'bad-lei.csv'));
  assert.deepEqual([lei.line, lei.problem], [3, 'LEI is not an LEI: "NOT-AN-LEI"']);

  const json = await failure('gb-coh-psc', here('psc-invalid-line.jsonl'));
  assert.deepEqual([json.file, json.line], ['psc-invalid-line.jsonl', 2]);
  assert.match(json.problem, /invalid JSON/);

  const statement = JSON.parse(readFileSync(here('bods-invalid.json'), 'utf8')) as unknown[];
  writeFileSync(join(tmp, 'stream.jsonl'), statement.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const schema = await failure('bods', join(tmp, 'stream.jsonl'));
  assert.equal(schema.line, 2);
  assert.match(schema.problem, /statement 2 .* fails the BODS 0.4 schema: \/recordDetails\/interests\/0\/share\/exact must be <= 100/);

  const truncated = await failure('bods', here('bods-truncated.txt'));
  assert.match(truncated.problem, /truncated JSON|invalid JSON/);
});

test('Companies House: company data, PSC kinds and bands with exclusive lower bounds; an unknown kind is skipped and counted', async () => {
  const companies = await read('gb-coh-companies-csv', here('gb-companies.csv'));
  assert.deepEqual(
    companies.records.map((r) => r.kind === 'entity' && [r.ref, r.status, r.incorporationDate, r.dissolutionDate ?? null, r.otherNames]),
    [
      ['06528297', 'active', '2008-03-08', null, ['EXAMPLE VIDEO LIMITED']],
      ['01234567', 'dissolved', '1999-06-05', '2020-02-01', []],
    ],
  );
  const { records, stats } = await read('gb-coh-psc', here('psc-stream.jsonl'));
  assert.deepEqual(stats.skipped, { 'unknown kind future-kind-of-record': 1, 'totals line': 1 });
  assert.equal(stats.publishDate, '2024-11-22');
  const rels = records.filter((r) => r.kind === 'relationship');
  const ada = rels.find((r) => r.interestedParty === 'psc-party:ada1')!;
  assert.deepEqual(
    ada.interests.map((i) => [i.type, i.share]),
    [
      ['shareholding', { min: 25, max: 50, minExclusive: true, maxExclusive: false }],
      ['votingRights', { min: 25, max: 50, minExclusive: true, maxExclusive: false }],
    ],
  );
  const corp = rels.find((r) => r.interestedParty === 'psc-party:corp1')!;
  assert.deepEqual(
    corp.interests.map((i) => i.type),
    ['shareholding', 'appointmentOfBoard'],
  );
  const old = rels.find((r) => r.interestedParty === 'psc-party:old1')!;
  assert.equal(old.interests[0]?.endDate, '2016-04-05');
  const person = records.find((r) => r.kind === 'person' && r.ref === 'psc-party:ada1');
  assert.deepEqual(person?.kind === 'person' && [person.birthYear, person.birthMonth, person.nationality], [1970, 4, 'British']);
});

test('Companies House bands: more than 25 up to 50, more than 50 but less than 75, 75 or more', () => {
  const share = (code: string) => natureToInterest(code)?.share;
  assert.deepEqual(share('ownership-of-shares-25-to-50-percent'), { min: 25, max: 50, minExclusive: true, maxExclusive: false });
  assert.deepEqual(share('voting-rights-50-to-75-percent-as-trust'), { min: 50, max: 75, minExclusive: true, maxExclusive: true });
  assert.deepEqual(share('ownership-of-shares-75-to-100-percent-as-firm'), { min: 75, max: 100, minExclusive: false, maxExclusive: false });
  assert.deepEqual(share('ownership-of-shares-more-than-25-percent-registered-overseas-entity'), {
    min: 25,
    max: 100,
    minExclusive: true,
    maxExclusive: false,
  });
});

test(
  'the shared PSC fixtures map to the right interests and bands, every kind read without a crash',
  { skip: sharedData('kyb') ? false : SKIP_NO_DATA },
  async () => {
    const snap = sharedData('kyb', 'uk_psc_snapshot_real')!;
    const natures = new Map<string, string>();
    for (const f of readdirSync(snap).filter((f) => f.startsWith('psc-data'))) {
      const { records } = await read('gb-coh-psc', join(snap, f));
      for (const r of records)
        if (r.kind === 'relationship') for (const i of r.interests) natures.set(`${i.type}`, JSON.stringify(i.share ?? null));
    }
    assert.equal(natures.get('shareholding') !== undefined, true);
    const feldman = await read('gb-coh-psc', join(snap, 'psc-data-1.json'));
    const rel = feldman.records.find((r) => r.kind === 'relationship')!;
    assert.ok(rel.kind === 'relationship');
    assert.deepEqual(rel.interests[0]?.share, { min: 75, max: 100, minExclusive: false, maxExclusive: false }, '75% or more');
    assert.deepEqual(
      feldman.records.find((r) => r.kind === 'exception')?.kind === 'exception' && feldman.records.find((r) => r.kind === 'exception'),
      {
        kind: 'exception',
        ref: 'statement:Z1EPZ-AyS_CpOQyqHfFzyRcbkdg',
        subject: '08209948',
        category: 'psc_statement',
        reason: 'no-individual-or-entity-with-signficant-control',
        startDate: '2016-09-11',
        endDate: '2021-12-13',
      },
    );

    const stream = sharedData('kyb', 'uk_psc_stream_samples')!;
    const kinds: Record<string, string> = {};
    for (const f of readdirSync(stream)) {
      const { records, stats } = await read('gb-coh-psc', join(stream, f));
      kinds[f] = records.map((r) => r.kind).join('+') || Object.keys(stats.skipped).join('+');
    }
    assert.deepEqual(kinds, {
      'psc_ceased_on.json': 'person+relationship',
      'psc_corporate.json': 'entity+relationship',
      'psc_exemptions.json': 'exception',
      'psc_individual.json': 'person+relationship',
      'psc_legal.json': 'entity+relationship',
      'psc_no_country.json': 'entity+relationship',
      'psc_no_match.json': 'entity+relationship',
      'psc_not_found.json': 'entity+relationship',
      'psc_statement.json': 'exception',
      'psc_statement_ceased_on.json': 'exception',
      'psc_super_secure.json': 'relationship',
      'psc_totals.json': 'totals line',
      'psc_unknown_kind.json': 'unknown kind unknown-kind',
    });
    // The shared basic-company-data CSV is hard-wrapped at 120 characters (a copy artefact): refused by name.
    const wrapped = await failure('gb-coh-companies-csv', join(snap, 'basic-company-data-1.csv'));
    assert.match(wrapped.message, /basic-company-data-1\.csv:1: wrong columns/);
    const json = await read('gb-coh-companies-json', join(snap, 'company-data-1.json'));
    assert.equal(json.records[0]?.kind === 'entity' && json.records[0].name, '! LTD');
  },
);

test(
  'GLEIF API fixtures: the right parents, and a missing direct parent beside a known ultimate parent',
  { skip: sharedData('kyb') ? false : SKIP_NO_DATA },
  async () => {
    const g = sharedData('kyb', 'gleif_api')!;
    const amazonUltimate = await read('gleif-json', join(g, 'relationships', 'ultimate-parent-relationship_254900LNRYNOQ9YPU758.json'));
    const amazonDirect = await read(
      'gleif-json',
      join(g, 'reporting_exceptions', 'direct-parent-reporting-exception_254900LNRYNOQ9YPU758.json'),
    );
    const up = amazonUltimate.records[0]!;
    assert.ok(up.kind === 'relationship');
    assert.deepEqual(
      [up.subject, up.interestedParty, up.interests[0]?.directOrIndirect],
      ['254900LNRYNOQ9YPU758', 'ZXTILKJKG63JELOEG630', 'indirect'],
    );
    assert.equal(amazonUltimate.stats.publishDate, '2025-05-15');
    assert.deepEqual(
      amazonDirect.records.map((r) => r.kind === 'exception' && [r.category, r.reason]),
      [['DIRECT_ACCOUNTING_CONSOLIDATION_PARENT', 'NON_PUBLIC']],
    );

    const parents: Record<string, string> = {};
    for (const f of readdirSync(join(g, 'relationships')).filter((f) => f.startsWith('direct-parent-relationship'))) {
      const r = (await read('gleif-json', join(g, 'relationships', f))).records[0]!;
      assert.ok(r.kind === 'relationship');
      parents[r.subject] = `${r.interestedParty as string}:${r.interests[0]?.directOrIndirect}`;
    }
    const leis = await read('gleif-json', join(g, 'lei_records', 'multi_lei_records.json'));
    assert.equal(leis.records.length, 12);
    const lapsed = leis.records.find((r) => r.ref === '335800CCCPHKUOXPC332');
    assert.equal(lapsed?.kind === 'entity' && lapsed.registrationStatus, 'LAPSED');
    assert.ok(
      leis.records.filter((r) => r.ref !== '335800CCCPHKUOXPC332').every((r) => r.kind === 'entity' && r.registrationStatus === 'ISSUED'),
    );
    for (const [child, parent] of Object.entries(parents)) assert.match(parent, /^[0-9A-Z]{20}:direct$/, child);
    assert.equal(Object.keys(parents).length, 3);
  },
);

test(
  'BODS: every valid statement passes, every invalid one fails with the defect named',
  { skip: sharedData('kyb', 'bods') ? false : SKIP_NO_DATA },
  () => {
    const dir = sharedData('kyb', 'bods', 'tests', 'data')!;
    const valid = readdirSync(join(dir, 'valid-statements')).filter((f) => f.endsWith('.json'));
    for (const f of valid)
      for (const s of JSON.parse(readFileSync(join(dir, 'valid-statements', f), 'utf8')) as unknown[])
        assert.deepEqual(validateStatement(s), [], f);
    assert.equal(valid.length, 111);

    const expected = new Map(
      readFileSync(join(dir, 'invalid-statements', 'expected_errors.csv'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(','))
        .map(([file, keyword]) => [file!, keyword!]),
    );
    const invalid = readdirSync(join(dir, 'invalid-statements')).filter((f) => f.endsWith('.json'));
    let keywordMatched = 0;
    for (const f of invalid) {
      const doc = JSON.parse(readFileSync(join(dir, 'invalid-statements', f), 'utf8')) as unknown;
      const defects = validatePackage(doc);
      assert.ok(defects.length > 0, `${f} passed`);
      // Statement by statement too (statements_not_array.json is a package defect, not a statement's).
      if (Array.isArray(doc)) assert.ok(doc.flatMap((s) => validateStatement(s)).length > 0, `${f} passed as statements`);
      const k = expected.get(f);
      if (k && defects.some((d) => d.keyword === k)) keywordMatched++;
    }
    assert.equal(invalid.length, 192);
    // Every file the upstream list names fails on the keyword it names.
    assert.equal(keywordMatched, [...expected.keys()].filter((f) => invalid.includes(f)).length);
  },
);

test('the unspecifiedReason codelist is read from the vendored schema and equals the published codelist CSV', (t) => {
  assert.ok(UNSPECIFIED_REASONS.has('noBeneficialOwners') && UNSPECIFIED_REASONS.has('informationUnknownToPublisher'));
  assert.ok(!UNSPECIFIED_REASONS.has('NON_PUBLIC'), 'a GLEIF reason is not a BODS code');
  const csv = sharedData('kyb', 'bods', 'schema', 'codelists', 'unspecifiedReason.csv');
  if (!csv) return t.skip(SKIP_NO_DATA);
  const codes = readFileSync(csv, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.split(',')[0]!.replace(/"/g, ''));
  assert.deepEqual([...UNSPECIFIED_REASONS].sort(), codes.sort());
});
