import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOfacCsv } from './ofac-csv.js';
import { parseOfacRemarks } from './ofac-remarks.js';
import { parseCsv } from './csv.js';
import { sharedData, SKIP_NO_DATA } from './fixtures/shared-data.js';

const load = (dir: string, names: string[]): Record<string, Buffer> =>
  Object.fromEntries(names.map((n) => [n, readFileSync(join(dir, n))]));

describe('OFAC CSV', () => {
  test('remarks: dates, nationality, gender, documents, weak aliases, crypto', () => {
    const r = parseOfacRemarks(
      "DOB 25 Mar 1977; alt. DOB 1978; POB Wuhan City, China; citizen China; Gender Male; Digital Currency Address - XBT 12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h; alt. Digital Currency Address - ETH 0xabc123; Passport T14553558 (Iran) issued 28 Oct 2008; a.k.a. 'ZHOU, William'.",
    );
    assert.deepEqual(r.birthDates, [{ date: '1977-03-25' }, { year: 1978 }]);
    assert.deepEqual(r.nationalities, ['CN']);
    assert.equal(r.gender, 'male');
    assert.deepEqual(r.identifiers, [
      { type: 'crypto:XBT', value: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' },
      { type: 'crypto:ETH', value: '0xabc123' },
      { type: 'passport', value: 'T14553558', country: 'IR' },
    ]);
    assert.deepEqual(r.weakAliases, [{ full: 'ZHOU, William', quality: 'weak' }]);
  });

  test('2019 full set: every SDN row becomes an entity, aliases and addresses join on ent_num', (t) => {
    const dir = sharedData('sanctions', 'ofac_sdn_csv_2019');
    if (!dir) return t.skip(SKIP_NO_DATA);
    const files = load(dir, ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv']);
    const es = parseOfacCsv(files);
    const sdnRows = parseCsv(files['sdn.csv']!.toString('latin1')).filter((r) => /^\d+$/.test(r[0]?.trim() ?? ''));
    assert.equal(es.length, sdnRows.length);
    const ids = new Set(es.map((e) => e.id));
    for (const r of parseCsv(files['alt.csv']!.toString('latin1'))) assert.ok(ids.has(`ofac-sdn:${r[0]!.trim()}`), `orphan alt ${r[0]}`);
    const bnc = es.find((e) => e.id === 'ofac-sdn:306')!;
    assert.deepEqual(bnc.names, [
      { full: 'BANCO NACIONAL DE CUBA', quality: 'strong' },
      { full: 'NATIONAL BANK OF CUBA', quality: 'strong' },
      { full: 'BNC', quality: 'weak' },
    ]);
    assert.ok(bnc.addresses.some((a) => a.includes('Zurich')));
    assert.deepEqual(bnc.programs, ['CUBA']);
    const zawahiri = es.find((e) => e.id === 'ofac-sdn:2676')!;
    assert.equal(zawahiri.schema, 'person');
    assert.deepEqual(zawahiri.birthDates, [{ date: '1951-06-19' }]);
    assert.deepEqual(zawahiri.programs, ['SDGT', 'SDT']);
    assert.ok(zawahiri.identifiers.some((i) => i.type === 'passport' && i.value === '1084010' && i.country === 'EG'));
    assert.equal(es.filter((e) => e.schema === 'vessel').length, sdnRows.filter((r) => r[2] === 'vessel').length);
  });

  test('2024 snapshot: digital-currency addresses from remarks', (t) => {
    const file = sharedData('sanctions', 'ofac_sdn_csv_2024_snapshots', 'sdn_2024-05-03.csv');
    if (!file) return t.skip(SKIP_NO_DATA);
    const es = parseOfacCsv({ 'sdn.csv': readFileSync(file) });
    const yan = es.find((e) => e.id === 'ofac-sdn:25308')!;
    assert.equal(yan.identifiers.filter((i) => i.type === 'crypto:XBT').length, 6);
    assert.ok(yan.identifiers.some((i) => i.value === '1Kuf2Rd8mDyAViwBozGTNYnvWL8uYFrkVo'));
    const crypto = es.flatMap((e) => e.identifiers).filter((i) => i.type.startsWith('crypto:'));
    assert.ok(crypto.length > 250, `only ${crypto.length} addresses`);
  });

  test('consolidated non-SDN set parses with its own prefix', (t) => {
    const dir = sharedData('sanctions', 'ofac_non_sdn_consolidated');
    if (!dir) return t.skip(SKIP_NO_DATA);
    const es = parseOfacCsv(load(dir, ['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv', 'cons_comments.csv']));
    assert.ok(es.length >= 400);
    assert.ok(es.every((e) => e.id.startsWith('ofac-cons:') && e.source === 'ofac_cons'));
  });

  test('missing sdn.csv is an error, not an empty list', () => {
    assert.throws(() => parseOfacCsv({ 'alt.csv': '1,2,"aka","X",-0-' }), /sdn\.csv/);
  });
});
