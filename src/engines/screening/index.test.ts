import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ScreeningIndex, DEFAULT_THRESHOLD } from './index.js';
import type { ListEntity } from './types.js';
import { sandboxList } from '../../providers/lists/sandbox-list.js';
import { parseUnXml } from '../../providers/lists/un-xml.js';
import { parseUkCsv } from '../../providers/lists/uk-csv.js';
import { sharedData, SKIP_NO_DATA } from '../../providers/lists/fixtures/shared-data.js';

const extra: ListEntity[] = [
  {
    id: 't:1',
    source: 'custom',
    datasets: ['sanctions'],
    schema: 'person',
    names: [
      { full: 'KHOROSHEV, Dmitry Yuryevich', quality: 'strong' },
      { full: 'LOCKBITSUPP', quality: 'weak' },
    ],
    birthDates: [{ date: '1993-04-17' }],
    nationalities: ['RU'],
    countries: ['RU'],
    gender: 'male',
    addresses: [],
    identifiers: [{ type: 'email', value: 'khoroshev1@icloud.com' }],
    programs: ['CYBER2'],
  },
  {
    id: 't:2',
    source: 'custom',
    datasets: ['sanctions'],
    schema: 'vessel',
    names: [{ full: 'NS LEADER', quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: ['GA'],
    addresses: [],
    identifiers: [{ type: 'imo', value: '9339301' }],
    programs: ['RUSSIA-EO14024'],
  },
  {
    id: 't:3',
    source: 'custom',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [{ full: 'Fictive Trading Limited Liability Company', quality: 'strong' }],
    birthDates: [],
    nationalities: [],
    countries: [],
    addresses: [],
    identifiers: [],
    programs: [],
  },
];
const index = ScreeningIndex.build([...sandboxList(), ...extra]);

describe('ScreeningIndex.screen', () => {
  test('sandbox person: exact name is a match with an explanation', () => {
    const r = index.screen({ name: 'Sandbox Sanctioned Person', birthDate: '1970-01-01' });
    assert.equal(r.decision, 'match');
    const hit = r.hits[0]!;
    assert.equal(hit.entityId, 'sandbox:sanctioned-person');
    assert.equal(hit.explanation.components.birthDate, 'exact');
    assert.ok(hit.explanation.matched.some((m) => m.includes('date of birth')));
    assert.ok(r.candidatesExamined < index.entityCount);
  });

  test('an exact name alone is a potential match; an agreeing date of birth makes it a match', () => {
    assert.equal(index.screen({ name: 'Sandbox Sanctioned Person' }).decision, 'potential_match');
    assert.equal(index.screen({ name: 'Sandbox Sanctioned Person', birthDate: '1970' }).decision, 'match');
    assert.equal(index.screen({ name: 'Sandbox Sanctioned Person', birthDate: '1990-05-05' }).decision, 'potential_match');
  });

  test('unrelated name: no match', () => {
    const r = index.screen({ name: 'Maria Gonzalez' });
    assert.equal(r.decision, 'no_match');
    assert.equal(r.hits.length, 0);
  });

  test('date-of-birth contradiction lowers the score and is explained', () => {
    const same = index.screen({ name: 'Dmitry Khoroshev', birthDate: '1993-04-17' }).hits[0]!;
    const other = index.screen({ name: 'Dmitry Khoroshev', birthDate: '1960-01-01' }, { threshold: 0 }).hits[0]!;
    assert.ok(other.score < same.score - 0.15);
    assert.equal(other.explanation.components.birthDate, 'contradicts');
    assert.ok(other.explanation.contradicted.some((c) => c.includes('differs')));
  });

  test('an identifier match is decisive even with another name', () => {
    const r = index.screen({ name: 'Sea Transporter', schema: 'vessel', identifiers: [{ type: 'IMO', value: '9339301' }] });
    assert.equal(r.decision, 'match');
    assert.equal(r.hits[0]!.entityId, 't:2');
    assert.equal(r.hits[0]!.explanation.components.identifier, 'match');
  });

  test('crypto address on the list is an identifier', () => {
    const r = index.screen({
      name: 'unknown wallet owner',
      identifiers: [{ type: 'crypto:XBT', value: 'bc1qsandboxsanctionedaddress000000000000' }],
    });
    assert.equal(r.hits[0]?.entityId, 'sandbox:sanctioned-company');
  });

  test('entity type contradiction halves the score', () => {
    const r = index.screen({ name: 'NS Leader', schema: 'person' }, { threshold: 0 });
    const hit = r.hits.find((h) => h.entityId === 't:2')!;
    assert.ok(hit.score <= 0.5);
    assert.equal(hit.explanation.components.schema, 'contradicts');
  });

  test('legal forms and name order', () => {
    assert.equal(index.screen({ name: 'FICTIVE TRADING LLC' }).hits[0]?.entityId, 't:3');
    assert.equal(index.screen({ name: 'Yuryevich Khoroshev Dmitry' }).hits[0]?.entityId, 't:1');
  });

  test('weak aliases only count when nearly exact, and then below a strong name', () => {
    const exact = index.screen({ name: 'Lockbitsupp' }).hits[0]!;
    assert.equal(exact.entityId, 't:1');
    assert.equal(exact.explanation.components.nameQuality, 'weak');
    assert.ok(exact.score < 1);
    assert.equal(index.screen({ name: 'Lockbitsup Ltd' }).hits.length, 0);
  });

  test('allow entry suppresses the hit, block entry forces a match', () => {
    const allowed = index.screen({ name: 'Sandbox Sanctioned Person' }, { allow: new Set(['sandbox:sanctioned-person']) });
    assert.equal(
      allowed.hits.some((h) => h.entityId === 'sandbox:sanctioned-person'),
      false,
    );
    assert.deepEqual(allowed.suppressed, ['sandbox:sanctioned-person']);
    const blocked = index.screen({ name: 'Completely Different' }, { block: new Set(['sandbox:pep']) });
    assert.equal(blocked.decision, 'match');
    assert.equal(blocked.hits[0]!.blocked, true);
  });

  test('datasets and sources filter the hits', () => {
    assert.equal(index.screen({ name: 'Sandbox Politically Exposed' }, { datasets: ['sanctions'] }).hits.length, 0);
    assert.equal(index.screen({ name: 'Sandbox Politically Exposed' }, { datasets: ['pep'] }).hits[0]?.entityId, 'sandbox:pep');
    assert.equal(index.screen({ name: 'Sandbox Adverse Media' }, { sources: ['custom'] }).hits.length, 0);
  });

  test('real lists: UN "ERIC BADEGE" and UK "ROSHAN MONEY EXCHANGE" hit', (t) => {
    const un = sharedData('sanctions', 'un_consolidated', 'UN_consolidated.xml');
    const uk = sharedData('sanctions', 'uk_fcdo_sanctions_list', 'FCDO_SL_2025-08-11.csv');
    if (!un || !uk) return t.skip(SKIP_NO_DATA);
    const idx = ScreeningIndex.build([...parseUnXml(readFileSync(un)), ...parseUkCsv(readFileSync(uk))]);
    const badege = idx.screen({ name: 'Eric Badege', schema: 'person' });
    assert.ok(badege.hits.some((h) => h.entityId === 'un:CDi.001' && h.score >= DEFAULT_THRESHOLD));
    const roshan = idx.screen({ name: 'Roshan Money Exchange' });
    assert.ok(roshan.hits.some((h) => h.entityId === 'uk:AFG0002'));
    assert.ok(roshan.candidatesExamined < idx.entityCount / 20);
  });
});
