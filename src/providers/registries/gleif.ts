// GLEIF: Level 1 LEI records and Level 2 relationship records and reporting exceptions, from the golden-copy
// CSV files (LEI-CDF 3.1, RR-CDF 2.1, repex 2.1; plain, .gz or .zip) and from GLEIF API (JSON:API) responses.
// Level 2 is accounting consolidation: it names parents, never percentages, so every relationship becomes a
// control interest with an unknown share (as openownership/bodspipelines maps it).

import type { Interest } from '../../engines/ownership/index.js';
import { csvRows, fileLabel, jsonItems } from './read-input.js';
import {
  day,
  obj,
  RegistryFileError,
  skip,
  str,
  type EntityRecord,
  type ExceptionRecord,
  type ParseStats,
  type RegistryFormat,
  type RegistryRecord,
  type RelationshipRecord,
} from './registry-source.js';

const LEI_RE = /^[0-9A-Z]{18}[0-9]{2}$/;

/** Relationship types that are one hop; the ultimate parent is a summary of a chain (indirect). */
const DIRECT_TYPES = new Set([
  'IS_DIRECTLY_CONSOLIDATED_BY',
  'IS_INTERNATIONAL_BRANCH_OF',
  'IS_FUND-MANAGED_BY',
  'IS_SUBFUND_OF',
  'IS_FEEDER_TO',
]);
const RELATIONSHIP_TYPES = new Set([...DIRECT_TYPES, 'IS_ULTIMATELY_CONSOLIDATED_BY']);

function entity(
  lei: string,
  name: string | undefined,
  f: {
    otherNames: string[];
    address?: EntityRecord['address'];
    ra?: string;
    raEntityId?: string;
    jurisdiction?: string;
    legalForm?: string;
    status?: string;
    registrationStatus?: string;
    created?: string;
  },
): EntityRecord {
  return {
    kind: 'entity',
    ref: lei,
    name: name ?? lei,
    otherNames: f.otherNames,
    lei,
    ...(f.raEntityId ? { registrationNumber: f.raEntityId } : {}),
    ...(f.ra ? { registrationAuthority: f.ra } : {}),
    ...(f.jurisdiction ? { jurisdiction: f.jurisdiction } : {}),
    ...(f.address?.country ? { country: f.address.country } : {}),
    ...(f.address ? { address: f.address } : {}),
    ...(f.legalForm ? { legalForm: f.legalForm } : {}),
    ...(f.status ? { status: f.status.toLowerCase() } : {}),
    ...(f.registrationStatus ? { registrationStatus: f.registrationStatus } : {}),
    ...(f.created ? { incorporationDate: f.created } : {}),
    entityType: 'registeredEntity',
  };
}

function relationship(
  child: string,
  parent: string,
  type: string,
  status: string | undefined,
  period: { start?: string; end?: string },
  withdrawn?: { on?: string },
): RelationshipRecord {
  const interest: Interest = {
    type: 'otherInfluenceOrControl',
    directOrIndirect: DIRECT_TYPES.has(type) ? 'direct' : 'indirect',
    beneficialOwnershipOrControl: false,
    ...(period.start ? { startDate: period.start } : {}),
    ...(period.end ? { endDate: period.end } : {}),
  };
  return {
    kind: 'relationship',
    ref: `${child}|${type}|${parent}`,
    subject: child,
    interestedParty: parent,
    interests: [interest],
    isComponent: false,
    componentRefs: [],
    sourceType: type,
    ...(status ? { status: status.toLowerCase() } : {}),
    ...(withdrawn ? { withdrawn } : {}),
  };
}

function exception(lei: string, category: string, reason: string, reference?: string, withdrawn?: { on?: string }): ExceptionRecord {
  return {
    kind: 'exception',
    ref: `${lei}|${category}`,
    subject: lei,
    category,
    reason,
    ...(reference ? { reference } : {}),
    ...(withdrawn ? { withdrawn } : {}),
  };
}

/** Registration statuses of a relationship record that no longer applies (it leaves the graph, as a withdrawal). */
const ENDED_REGISTRATIONS = new Set(['RETIRED', 'ANNULLED', 'DUPLICATE']);

/**
 * A delta file's withdrawal of a record: GLEIF's golden-copy extension `Extension/Deletion/DeletedAt` (the XML and
 * JSON delta files carry it on relationship records and reporting exceptions that were removed; the CSV flattens the
 * path into the column name, as for every other field); for a relationship record, also a retired registration.
 */
function withdrawal(row: Record<string, string | undefined>, relationship: boolean): { on?: string } | undefined {
  const deleted = str(row['Extension.Deletion.DeletedAt']);
  if (deleted) return { ...(day(deleted) ? { on: day(deleted) } : {}) };
  if (relationship && ENDED_REGISTRATIONS.has(str(row['Registration.RegistrationStatus']) ?? '')) {
    const on = day(row['Registration.LastUpdateDate']);
    return on ? { on } : {};
  }
  return undefined;
}

function checkLei(file: string, line: number, lei: string | undefined, what: string): string {
  if (!lei || !LEI_RE.test(lei)) throw new RegistryFileError(file, line, `${what} is not an LEI: ${JSON.stringify(lei ?? '')}`);
  return lei;
}

// ---- golden-copy CSV ----

const LEI_COLUMNS = ['LEI', 'Entity.LegalName', 'Entity.LegalAddress.Country', 'Registration.RegistrationStatus'];
const RR_COLUMNS = [
  'Relationship.StartNode.NodeID',
  'Relationship.EndNode.NodeID',
  'Relationship.RelationshipType',
  'Relationship.RelationshipStatus',
];
const REPEX_COLUMNS = ['LEI', 'ExceptionCategory', 'ExceptionReason.1'];

async function* leiCsv(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, row } of csvRows(path, LEI_COLUMNS)) {
    stats.read++;
    const lei = checkLei(file, line, str(row['LEI']), 'LEI');
    const otherNames: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const n = str(row[`Entity.OtherEntityNames.OtherEntityName.${i}`]);
      if (n) otherNames.push(n);
      const t = str(row[`Entity.TransliteratedOtherEntityNames.TransliteratedOtherEntityName.${i}`]);
      if (t) otherNames.push(t);
    }
    const lines = [
      row['Entity.LegalAddress.FirstAddressLine'],
      row['Entity.LegalAddress.AdditionalAddressLine.1'],
      row['Entity.LegalAddress.AdditionalAddressLine.2'],
    ]
      .map(str)
      .filter((x): x is string => !!x);
    yield entity(lei, str(row['Entity.LegalName']), {
      otherNames,
      address: {
        lines,
        ...(str(row['Entity.LegalAddress.City']) ? { city: str(row['Entity.LegalAddress.City']) } : {}),
        ...(str(row['Entity.LegalAddress.Region']) ? { region: str(row['Entity.LegalAddress.Region']) } : {}),
        ...(str(row['Entity.LegalAddress.PostalCode']) ? { postalCode: str(row['Entity.LegalAddress.PostalCode']) } : {}),
        ...(str(row['Entity.LegalAddress.Country']) ? { country: str(row['Entity.LegalAddress.Country']) } : {}),
      },
      ra: str(row['Entity.RegistrationAuthority.RegistrationAuthorityID']),
      raEntityId: str(row['Entity.RegistrationAuthority.RegistrationAuthorityEntityID']),
      jurisdiction: str(row['Entity.LegalJurisdiction']),
      legalForm: str(row['Entity.LegalForm.EntityLegalFormCode']),
      status: str(row['Entity.EntityStatus']),
      registrationStatus: str(row['Registration.RegistrationStatus']),
      created: day(row['Entity.EntityCreationDate']),
    });
  }
}

async function* rrCsv(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, row } of csvRows(path, RR_COLUMNS)) {
    stats.read++;
    const type = str(row['Relationship.RelationshipType']) ?? '';
    if (!RELATIONSHIP_TYPES.has(type)) {
      skip(stats, `relationship type ${type || '(empty)'}`);
      continue;
    }
    if ((str(row['Relationship.EndNode.NodeIDType']) ?? 'LEI') !== 'LEI') {
      skip(stats, 'parent without an LEI');
      continue;
    }
    const child = checkLei(file, line, str(row['Relationship.StartNode.NodeID']), 'Relationship.StartNode.NodeID');
    const parent = checkLei(file, line, str(row['Relationship.EndNode.NodeID']), 'Relationship.EndNode.NodeID');
    let period: { start?: string; end?: string } = {};
    for (let i = 1; i <= 5; i++) {
      if (row[`Relationship.Period.${i}.periodType`] === 'RELATIONSHIP_PERIOD')
        period = { start: day(row[`Relationship.Period.${i}.startDate`]), end: day(row[`Relationship.Period.${i}.endDate`]) };
    }
    yield relationship(child, parent, type, str(row['Relationship.RelationshipStatus']), period, withdrawal(row, true));
  }
}

async function* repexCsv(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, row } of csvRows(path, REPEX_COLUMNS)) {
    stats.read++;
    const lei = checkLei(file, line, str(row['LEI']), 'LEI');
    const category = str(row['ExceptionCategory']);
    const reason = str(row['ExceptionReason.1']);
    if (!category || !reason) throw new RegistryFileError(file, line, 'ExceptionCategory and ExceptionReason.1 are required');
    yield exception(lei, category, reason, str(row['ExceptionReference.1']), withdrawal(row, false));
  }
}

// ---- GLEIF API (JSON:API) responses ----

async function* apiJson(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, value } of jsonItems(path)) yield* jsonApiRecords(value, stats, file, line);
}

/** The records of one GLEIF API (JSON:API) document: lei-records, relationship-records, reporting-exceptions. */
export function* jsonApiRecords(value: unknown, stats: ParseStats, file: string, line: number): Generator<RegistryRecord> {
  {
    const doc = obj(value);
    if (!('data' in doc)) throw new RegistryFileError(file, line, 'not a JSON:API document (no "data")');
    const publish = day(obj(obj(doc['meta'])['goldenCopy'])['publishDate']);
    if (publish && (!stats.publishDate || publish > stats.publishDate)) stats.publishDate = publish;
    const resources = Array.isArray(doc['data']) ? (doc['data'] as unknown[]) : doc['data'] === null ? [] : [doc['data']];
    for (const r of resources) {
      stats.read++;
      const res = obj(r);
      const a = obj(res['attributes']);
      if (res['type'] === 'lei-records') {
        const e = obj(a['entity']);
        const reg = obj(a['registration']);
        const lei = checkLei(file, line, str(a['lei']) ?? str(res['id']), 'lei');
        const addr = obj(e['legalAddress']);
        const otherNames = [
          ...(Array.isArray(e['otherNames']) ? e['otherNames'] : []),
          ...(Array.isArray(e['transliteratedOtherNames']) ? e['transliteratedOtherNames'] : []),
        ]
          .map((n) => str(obj(n)['name']))
          .filter((x): x is string => !!x);
        yield entity(lei, str(obj(e['legalName'])['name']), {
          otherNames,
          address: {
            lines: (Array.isArray(addr['addressLines']) ? addr['addressLines'] : []).map(str).filter((x): x is string => !!x),
            ...(str(addr['city']) ? { city: str(addr['city']) } : {}),
            ...(str(addr['region']) ? { region: str(addr['region']) } : {}),
            ...(str(addr['postalCode']) ? { postalCode: str(addr['postalCode']) } : {}),
            ...(str(addr['country']) ? { country: str(addr['country']) } : {}),
          },
          ra: str(obj(e['registeredAt'])['id']),
          raEntityId: str(e['registeredAs']),
          jurisdiction: str(e['jurisdiction']),
          legalForm: str(obj(e['legalForm'])['id']),
          status: str(e['status']),
          registrationStatus: str(reg['status']),
          created: day(e['creationDate']),
        });
      } else if (res['type'] === 'relationship-records') {
        const rel = obj(a['relationship']);
        const type = str(rel['type']) ?? '';
        if (!RELATIONSHIP_TYPES.has(type)) {
          skip(stats, `relationship type ${type || '(empty)'}`);
          continue;
        }
        const child = checkLei(file, line, str(obj(rel['startNode'])['id']), 'relationship.startNode.id');
        const parent = checkLei(file, line, str(obj(rel['endNode'])['id']), 'relationship.endNode.id');
        const periods = Array.isArray(rel['periods']) ? (rel['periods'] as unknown[]).map(obj) : [];
        const p = periods.find((x) => x['type'] === 'RELATIONSHIP_PERIOD') ?? {};
        yield relationship(child, parent, type, str(rel['status']), { start: day(p['startDate']), end: day(p['endDate']) });
      } else if (res['type'] === 'reporting-exceptions') {
        const lei = checkLei(file, line, str(a['lei']), 'lei');
        const category = str(a['category']),
          reason = str(a['reason']);
        if (!category || !reason) throw new RegistryFileError(file, line, 'reporting exception without category or reason');
        yield exception(lei, category, reason, str(a['reference']));
      } else skip(stats, `resource type ${String(res['type'] ?? '(none)')}`);
    }
  }
}

export const gleifFormats: Record<string, RegistryFormat> = {
  'gleif-lei-csv': { source: 'gleif', description: 'GLEIF golden copy LEI-CDF CSV (Level 1)', parse: leiCsv },
  'gleif-rr-csv': {
    source: 'gleif',
    description: 'GLEIF golden copy RR-CDF CSV (Level 2 relationships)',
    parse: rrCsv,
    fullFileOf: 'relationship',
  },
  'gleif-repex-csv': {
    source: 'gleif',
    description: 'GLEIF golden copy reporting exceptions CSV',
    parse: repexCsv,
    fullFileOf: 'exception',
  },
  'gleif-json': {
    source: 'gleif',
    description: 'GLEIF API JSON:API responses (lei-records, relationship-records, reporting-exceptions)',
    parse: apiJson,
  },
};
