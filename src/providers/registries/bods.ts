// Any BODS 0.4 package (a JSON array of statements) or statement stream (JSON lines), every statement
// validated with the BODS JSON Schema (vendored in bods-schema.ts) through ajv before it is read.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fromBodsShare, type Interest } from '../../engines/ownership/index.js';
import { BODS_SCHEMAS } from './bods-schema.js';
import { fileLabel, jsonItems } from './read-input.js';
import {
  day,
  obj,
  RegistryFileError,
  skip,
  str,
  type EntityRecord,
  type ParseStats,
  type PersonRecord,
  type RegistryFormat,
  type RegistryRecord,
  type RelationshipRecord,
} from './registry-source.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let validators: { statement: ValidateFunction; package: ValidateFunction } | undefined;

function compiled(): { statement: ValidateFunction; package: ValidateFunction } {
  if (validators) return validators;
  // strict off: the schema carries BODS's own annotation keywords (codelist, openCodelist, propertyOrder).
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
  for (const schema of Object.values(BODS_SCHEMAS)) ajv.addSchema(schema);
  validators = {
    statement: ajv.compile({ $ref: 'https://bods.invalid/statement#/$defs/Statement' }),
    package: ajv.getSchema('https://bods.invalid/statement')!,
  };
  return validators;
}

/** BODS codelist values as the vendored schema states them, read once (so nobody repeats the list). */
function schemaEnum(schema: string, defName: string, prop: string): readonly string[] {
  const defs = obj(BODS_SCHEMAS[schema]?.['$defs']);
  const values = obj(obj(obj(defs[defName])['properties'])[prop])['enum'];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw new Error(`BODS schema: ${schema}#/$defs/${defName}/properties/${prop} has no enum`);
  return values as string[];
}

/** The closed unspecifiedReason codelist (BODS 0.4 components#/$defs/UnspecifiedRecord). */
export const UNSPECIFIED_REASONS: ReadonlySet<string> = new Set(schemaEnum('components', 'UnspecifiedRecord', 'reason'));

export interface BodsDefect {
  keyword: string;
  path: string;
  message: string;
}

/** Validates one statement; returns the defects ajv found (empty when valid). */
export function validateStatement(statement: unknown): BodsDefect[] {
  return defects(compiled().statement, statement);
}

/** Validates a whole package (a JSON array of statements). */
export function validatePackage(pkg: unknown): BodsDefect[] {
  return defects(compiled().package, pkg);
}

function defects(v: ValidateFunction, value: unknown): BodsDefect[] {
  if (v(value)) return [];
  return (v.errors ?? []).map((e: ErrorObject) => ({
    keyword: e.keyword,
    path: e.instancePath || '/',
    message: `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'missingProperty' in e.params ? ` (${String(e.params['missingProperty'])})` : ''}${e.params && 'allowedValues' in e.params ? ` (allowed: ${(e.params['allowedValues'] as unknown[]).join(', ')})` : ''}`,
  }));
}

function interests(list: unknown): Interest[] {
  return (Array.isArray(list) ? list : []).map((i) => {
    const o = obj(i);
    const share = fromBodsShare(o['share'] ? obj(o['share']) : undefined);
    const doi = str(o['directOrIndirect']);
    return {
      ...(str(o['type']) ? { type: str(o['type']) } : {}),
      directOrIndirect: doi === 'direct' || doi === 'indirect' ? doi : 'unknown',
      ...(share ? { share } : {}),
      ...(day(o['startDate']) ? { startDate: day(o['startDate']) } : {}),
      ...(day(o['endDate']) ? { endDate: day(o['endDate']) } : {}),
      ...(typeof o['beneficialOwnershipOrControl'] === 'boolean'
        ? { beneficialOwnershipOrControl: o['beneficialOwnershipOrControl'] as boolean }
        : {}),
    };
  });
}

/** BODS statement → registry record (undefined for what the model does not keep, counted by the caller). */
export function fromStatement(s: Record<string, unknown>): RegistryRecord | undefined {
  const ref = str(s['recordId'])!;
  const d = obj(s['recordDetails']);
  const origin = {
    ...(str(s['statementId']) ? { statementId: str(s['statementId']) } : {}),
    ...(day(s['statementDate']) ? { statementDate: day(s['statementDate']) } : {}),
    ...(str(s['recordStatus']) ? { recordStatus: str(s['recordStatus']) } : {}),
  };
  if (s['recordType'] === 'entity') {
    const ids = (Array.isArray(d['identifiers']) ? d['identifiers'] : []).map(obj);
    const lei = ids.find((i) => i['scheme'] === 'XI-LEI');
    const other = ids.find((i) => i['scheme'] !== 'XI-LEI' && str(i['id']));
    const addr = obj((Array.isArray(d['addresses']) ? d['addresses'] : [])[0]);
    const reason = str(obj(d['unspecifiedEntityDetails'])['reason']);
    const e: EntityRecord = {
      kind: 'entity',
      ref,
      name: str(d['name']) ?? (reason ? `unspecified (${reason})` : ref),
      otherNames: (Array.isArray(d['alternateNames']) ? d['alternateNames'] : []).map(str).filter((x): x is string => !!x),
      ...(str(lei?.['id']) ? { lei: str(lei?.['id']) } : {}),
      ...(str(other?.['id']) ? { registrationNumber: str(other?.['id']) } : {}),
      ...((str(other?.['scheme']) ?? str(other?.['schemeName']))
        ? { registrationAuthority: str(other?.['scheme']) ?? str(other?.['schemeName']) }
        : {}),
      ...(str(obj(d['jurisdiction'])['code']) ? { jurisdiction: str(obj(d['jurisdiction'])['code']) } : {}),
      ...(str(obj(addr['country'])['code']) ? { country: str(obj(addr['country'])['code']) } : {}),
      ...(str(addr['address'])
        ? {
            address: {
              lines: [str(addr['address'])!],
              ...(str(addr['postCode']) ? { postalCode: str(addr['postCode']) } : {}),
              ...(str(obj(addr['country'])['code']) ? { country: str(obj(addr['country'])['code']) } : {}),
            },
          }
        : {}),
      ...(day(d['foundingDate']) ? { incorporationDate: day(d['foundingDate']) } : {}),
      ...(day(d['dissolutionDate']) ? { dissolutionDate: day(d['dissolutionDate']), status: 'dissolved' } : {}),
      ...(str(obj(d['entityType'])['type']) ? { entityType: str(obj(d['entityType'])['type']) } : {}),
      ...(obj(d['publicListing'])['hasPublicListing'] === true ? { listed: true } : {}),
      ...(reason ? { unspecifiedReason: reason } : {}),
      ...origin,
    };
    return e;
  }
  if (s['recordType'] === 'person') {
    const names = (Array.isArray(d['names']) ? d['names'] : []).map(obj);
    const birth = str(d['birthDate']);
    const nat = (Array.isArray(d['nationalities']) ? d['nationalities'] : []).map(obj)[0];
    const reason = str(obj(d['unspecifiedPersonDetails'])['reason']);
    const p: PersonRecord = {
      kind: 'person',
      ref,
      name: str(names[0]?.['fullName']) ?? (reason ? `unspecified (${reason})` : ref),
      personType: str(d['personType']) ?? 'knownPerson',
      ...(birth && /^\d{4}/.test(birth) ? { birthYear: Number(birth.slice(0, 4)) } : {}),
      ...(birth && /^\d{4}-\d{2}/.test(birth) ? { birthMonth: Number(birth.slice(5, 7)) } : {}),
      ...(str(nat?.['code']) ? { nationality: str(nat?.['code']) } : {}),
      ...(reason ? { unspecifiedReason: reason } : {}),
      ...origin,
    };
    return p;
  }
  if (s['recordType'] === 'relationship') {
    const subject = d['subject'];
    if (typeof subject !== 'string') return undefined;
    const ip = d['interestedParty'];
    const r: RelationshipRecord = {
      kind: 'relationship',
      ref,
      subject,
      interestedParty:
        typeof ip === 'string'
          ? ip
          : {
              unspecifiedReason: str(obj(ip)['reason']) ?? 'unknown',
              ...(str(obj(ip)['description']) ? { description: str(obj(ip)['description']) } : {}),
            },
      interests: interests(d['interests']),
      isComponent: d['isComponent'] === true,
      componentRefs: (Array.isArray(d['componentRecords']) ? d['componentRecords'] : []).filter((x): x is string => typeof x === 'string'),
      ...origin,
    };
    return r;
  }
  return undefined;
}

async function* bods(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  let n = 0;
  for await (const { line, value } of jsonItems(path)) {
    stats.read++;
    n++;
    const defects = validateStatement(value);
    if (defects.length) {
      const id = str(obj(value)['statementId']);
      throw new RegistryFileError(
        file,
        line,
        `statement ${n}${id ? ` (${id})` : ''} fails the BODS 0.4 schema: ${defects.map((d) => `${d.message} [${d.keyword}]`).join('; ')}`,
      );
    }
    const rec = fromStatement(obj(value));
    if (rec) {
      const date = str(obj(value)['statementDate']);
      if (date && (!stats.publishDate || day(date)! > stats.publishDate)) stats.publishDate = day(date);
      yield rec;
    } else skip(stats, 'relationship with an unspecified subject');
  }
}

export const bodsFormats: Record<string, RegistryFormat> = {
  bods: { source: 'bods', description: 'BODS 0.4 package (JSON array) or statement stream (JSON lines), schema-validated', parse: bods },
};
