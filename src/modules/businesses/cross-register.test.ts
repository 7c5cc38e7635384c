// The ownership graph continues through another register's record of the same entity where its own register
// records no owners. Files written by the test (a Companies House company file and PSC snapshot, GLEIF LEI and
// RR CSV rows; not recorded data):
// - ROOT ABROAD (44444444) is held 75–100 % by Abroad Holdco B.V. (a corporate PSC registered in the Netherlands,
//   NL111), whose GLEIF record (RA entity id NL111, NL) is directly consolidated by an LEI whose record is the UK
//   company TOP UK HOLDINGS (55555555), held 75–100 % by Mr Top Owner: a person found only through the links.
// - CIRCLE (66666666) is held by Circle Holdco B.V. (NL222), consolidated in GLEIF by the LEI of CIRCLE itself.
// - UNLINKED (77777777) is held by Elsewhere Holdco (NL333 in the Netherlands); the GLEIF record under NL333 is
//   Belgian, so it is not the same entity and nothing crosses although it has a parent.
// - LEI PARENTED (88888888) has no PSCs on file; its LEI record names a parent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb } from '../../../test/helpers/test-db.js';
import type { Db } from '../../platform/db.js';
import { resolveUbos } from '../../engines/ownership/index.js';
import { importRegistryFile } from './registry-import.js';
import { loadGraph } from './graph.js';
import { ownershipView } from './view.js';

const lei = (name: string) => `${name}${'0'.repeat(18)}`.slice(0, 18) + '00';
const ABROAD = lei('5299ABROADHOLD'),
  TOPUK = lei('5299TOPUKHOLD'),
  CIRCLEHOLD = lei('5299CIRCLEHOLD'),
  CIRCLE = lei('5299CIRCLELTD'),
  ELSEWHERE = lei('5299ELSEWHERE'),
  ELSEPARENT = lei('5299ELSEPARENT'),
  PARENTED = lei('5299LEIPARENTED'),
  PARENT88 = lei('5299PARENTFR');

const companies = [
  'CompanyName, CompanyNumber,RegAddress.CareOf,RegAddress.POBox,RegAddress.AddressLine1, RegAddress.AddressLine2,RegAddress.PostTown,RegAddress.County,RegAddress.Country,RegAddress.PostCode,CompanyCategory,CompanyStatus,CountryOfOrigin,DissolutionDate,IncorporationDate,PreviousName_1.CompanyName',
  ...[
    ['ROOT ABROAD LIMITED', '44444444'],
    ['TOP UK HOLDINGS LIMITED', '55555555'],
    ['CIRCLE LIMITED', '66666666'],
    ['UNLINKED LIMITED', '77777777'],
    ['LEI PARENTED LIMITED', '88888888'],
  ].map(([n, c]) => `${n},${c},,,1 ROAD,,BRISTOL,,ENGLAND,BS1 1AA,Private Limited Company,Active,United Kingdom,,01/02/2012,`),
].join('\n');

const corporate = (company: string, id: string, name: string, country: string, number: string) =>
  JSON.stringify({
    company_number: company,
    data: {
      kind: 'corporate-entity-person-with-significant-control',
      name,
      identification: { country_registered: country, registration_number: number, legal_form: 'Besloten vennootschap' },
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2016-04-06',
      links: { self: `/company/${company}/persons-with-significant-control/corporate-entity/${id}` },
    },
  });
const psc = [
  corporate('44444444', 'ah1', 'Abroad Holdco B.V.', 'Netherlands', 'NL111'),
  JSON.stringify({
    company_number: '55555555',
    data: {
      kind: 'individual-person-with-significant-control',
      name: 'Mr Top Owner',
      name_elements: { title: 'Mr', forename: 'Top', surname: 'Owner' },
      date_of_birth: { month: 3, year: 1970 },
      nationality: 'British',
      natures_of_control: ['ownership-of-shares-75-to-100-percent'],
      notified_on: '2016-04-06',
      links: { self: '/company/55555555/persons-with-significant-control/individual/to1' },
    },
  }),
  corporate('66666666', 'ch1', 'Circle Holdco B.V.', 'Netherlands', 'NL222'),
  corporate('77777777', 'eh1', 'Elsewhere Holdco', 'Netherlands', 'NL333'),
].join('\n');

const leiCsv = [
  'LEI,Entity.LegalName,Entity.LegalAddress.FirstAddressLine,Entity.LegalAddress.City,Entity.LegalAddress.Country,Entity.RegistrationAuthority.RegistrationAuthorityID,Entity.RegistrationAuthority.RegistrationAuthorityEntityID,Entity.LegalJurisdiction,Entity.EntityStatus,Registration.RegistrationStatus',
  `${ABROAD},Abroad Holdco B.V.,1 Gracht,Amsterdam,NL,RA000463,NL111,NL,ACTIVE,ISSUED`,
  `${TOPUK},Top UK Holdings Limited,1 Road,Bristol,GB,RA000585,55555555,GB,ACTIVE,ISSUED`,
  `${CIRCLEHOLD},Circle Holdco B.V.,2 Gracht,Amsterdam,NL,RA000463,NL222,NL,ACTIVE,ISSUED`,
  `${CIRCLE},Circle Limited,1 Road,Bristol,GB,RA000585,66666666,GB,ACTIVE,ISSUED`,
  `${ELSEWHERE},Elsewhere Holdco SA,1 Rue,Bruxelles,BE,RA000025,NL333,BE,ACTIVE,ISSUED`,
  `${ELSEPARENT},Else Parent SA,2 Rue,Bruxelles,BE,RA000025,BE999,BE,ACTIVE,ISSUED`,
  `${PARENTED},LEI Parented Limited,1 Road,Bristol,GB,RA000585,88888888,GB,ACTIVE,ISSUED`,
  `${PARENT88},Parent France SA,1 Rue,Paris,FR,RA000189,FR888,FR,ACTIVE,ISSUED`,
].join('\n');

const rrCsv = [
  'Relationship.StartNode.NodeID,Relationship.StartNode.NodeIDType,Relationship.EndNode.NodeID,Relationship.EndNode.NodeIDType,Relationship.RelationshipType,Relationship.RelationshipStatus,Relationship.Period.1.startDate,Relationship.Period.1.endDate,Relationship.Period.1.periodType,Registration.RegistrationStatus',
  ...[
    [ABROAD, TOPUK],
    [CIRCLEHOLD, CIRCLE],
    [ELSEWHERE, ELSEPARENT],
    [PARENTED, PARENT88],
  ].map(([c, p]) => `${c},LEI,${p},LEI,IS_DIRECTLY_CONSOLIDATED_BY,ACTIVE,2015-01-01T00:00:00Z,,RELATIONSHIP_PERIOD,PUBLISHED`),
].join('\n');

let db: Db, close: () => Promise<void>;
const batch: Record<string, string> = {};
before(async () => {
  ({ db, close } = await createTestDb());
  const dir = mkdtempSync(join(tmpdir(), 'verity-xreg-'));
  for (const [name, text, format] of [
    ['companies.csv', companies, 'gb-coh-companies-csv'],
    ['psc.jsonl', psc, 'gb-coh-psc'],
    ['lei.csv', leiCsv, 'gleif-lei-csv'],
    ['rr.csv', rrCsv, 'gleif-rr-csv'],
  ] as const) {
    writeFileSync(join(dir, name), `${text}\n`);
    const r = await importRegistryFile(db, { path: join(dir, name), format });
    assert.equal(r.ok, true, r.error);
    batch[format] = r.batch!.id;
  }
});
after(() => close());

test('a UBO recorded only in the other register is found through same-entity links; each edge keeps its own batch', async () => {
  const l = await loadGraph(db, 'gb_coh', '44444444');
  const view = ownershipView(l);
  assert.deepEqual(
    view.links?.map((k) => [k.from, k.to, k.relation]),
    [
      [`gleif:${ABROAD}`, 'psc-party:ah1', 'same_entity'],
      ['55555555', `gleif:${TOPUK}`, 'same_entity'],
    ],
  );
  // Links are not ownership edges; every edge names the batch it came from.
  assert.deepEqual(
    view.edges.map((e) => [e.from, e.to, e.source]).sort(),
    [
      ['psc-party:ah1', '44444444', `gb_coh:${batch['gb-coh-psc']}`],
      ['psc-party:to1', '55555555', `gb_coh:${batch['gb-coh-psc']}`],
      [`gleif:${TOPUK}`, `gleif:${ABROAD}`, `gleif:${batch['gleif-rr-csv']}`],
    ].sort(),
  );
  assert.equal(view.nodes.find((n) => n.id === `gleif:${ABROAD}`)?.source, 'gleif');
  assert.equal(view.nodes.find((n) => n.id === '55555555')?.source, 'gb_coh');

  const r = resolveUbos(l.graph, '44444444', { asOf: '2024-01-01' });
  const top = r.owners.find((o) => o.name === 'Mr Top Owner');
  assert.ok(top, JSON.stringify(r));
  assert.deepEqual([top.qualifies, top.reasons], [true, ['control']]);
  assert.deepEqual(top.paths[0]?.nodeIds, ['psc-party:to1', '55555555', `gleif:${TOPUK}`, `gleif:${ABROAD}`, 'psc-party:ah1', '44444444']);
  assert.deepEqual(top.paths[0]?.edgeIds.filter((id) => id.startsWith('same_as:')).length, 2);
  assert.deepEqual(r.unresolved, []);
  // Three ownership levels; the two steps across registers are not levels: at most 3 reaches Mr Top Owner,
  // at most 2 stops at the second level (the GLEIF parent, before its step back into Companies House).
  const within = (maxDepth: number) => resolveUbos(l.graph, '44444444', { asOf: '2024-01-01', maxDepth });
  assert.deepEqual(
    within(3).owners.map((o) => o.name),
    ['Mr Top Owner'],
  );
  assert.deepEqual(
    within(2).unresolved.map((u) => [u.nodeId, u.reason]),
    [[`gleif:${TOPUK}`, 'depth_limit']],
  );
});

test('a UK company without PSCs on file continues through its LEI record’s parents', async () => {
  const l = await loadGraph(db, 'gb_coh', '88888888');
  const r = resolveUbos(l.graph, '88888888', { asOf: '2024-01-01' });
  assert.deepEqual(
    r.unresolved.map((u) => [u.nodeId, u.reason]),
    [[`gleif:${PARENT88}`, 'no_known_person']],
  );
  assert.deepEqual(
    ownershipView(l).links?.map((k) => k.id),
    [`same_as:gleif:${PARENTED}>88888888`],
  );
});

test('a cycle across registers is read once and reported, never looped on', async () => {
  const l = await loadGraph(db, 'gb_coh', '66666666');
  assert.equal([...l.graph.nodes.keys()].filter((id) => id === '66666666' || id.endsWith(CIRCLE)).length, 2);
  const r = resolveUbos(l.graph, '66666666', { asOf: '2024-01-01' });
  assert.deepEqual(r.cycles, [['66666666', 'psc-party:ch1', `gleif:${CIRCLEHOLD}`, `gleif:${CIRCLE}`, '66666666']]);
  assert.deepEqual(r.owners, []);
});

test('without a same-entity link (same number, another country) nothing crosses', async () => {
  const l = await loadGraph(db, 'gb_coh', '77777777');
  const view = ownershipView(l);
  assert.deepEqual(view.links, []);
  assert.equal(
    view.nodes.some((n) => n.id.startsWith('gleif:')),
    false,
  );
  assert.deepEqual(view.nodes.find((n) => n.id === 'psc-party:eh1')?.same_as, []);
  const r = resolveUbos(l.graph, '77777777', { asOf: '2024-01-01' });
  assert.deepEqual(
    r.unresolved.map((u) => [u.nodeId, u.reason]),
    [['psc-party:eh1', 'no_known_person']],
  );
});
