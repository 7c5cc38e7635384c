// Our own JSON Schema for IVMS101 (2020), the shapes and field lengths of the standard's data model.
// What a schema cannot say well (one-of person, originator-only constraints, LEI check digits, code lists)
// lives in ivms101-rules.ts, so its errors carry the standard's constraint names and a readable path.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Ivms101Issue, Ivms101Kind } from './ivms101-types.js';

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const country = { type: 'string', pattern: '^[A-Z]{2}$' } as const;
const ref = (name: string) => ({ $ref: `#/$defs/${name}` }) as const;
const list = (name: string, minItems = 0) => ({ type: 'array', items: ref(name), minItems }) as const;

const defs = {
  naturalPersonNameId: {
    type: 'object',
    required: ['primaryIdentifier', 'nameIdentifierType'],
    additionalProperties: false,
    properties: {
      primaryIdentifier: text(100),
      secondaryIdentifier: text(100),
      nameIdentifierType: { enum: ['ALIA', 'BIRT', 'MAID', 'LEGL', 'MISC'] },
    },
  },
  naturalPersonName: {
    type: 'object',
    required: ['nameIdentifier'],
    additionalProperties: false,
    properties: {
      nameIdentifier: list('naturalPersonNameId', 1),
      localNameIdentifier: list('naturalPersonNameId'),
      phoneticNameIdentifier: list('naturalPersonNameId'),
    },
  },
  legalPersonNameId: {
    type: 'object',
    required: ['legalPersonName', 'legalPersonNameIdentifierType'],
    additionalProperties: false,
    properties: {
      legalPersonName: text(100),
      legalPersonNameIdentifierType: { enum: ['LEGL', 'SHRT', 'TRAD'] },
    },
  },
  legalPersonName: {
    type: 'object',
    required: ['nameIdentifier'],
    additionalProperties: false,
    properties: {
      nameIdentifier: list('legalPersonNameId', 1),
      localNameIdentifier: list('legalPersonNameId'),
      phoneticNameIdentifier: list('legalPersonNameId'),
    },
  },
  address: {
    type: 'object',
    required: ['addressType', 'country'],
    additionalProperties: false,
    properties: {
      addressType: { enum: ['HOME', 'BIZZ', 'GEOG'] },
      department: text(50),
      subDepartment: text(70),
      streetName: text(70),
      buildingNumber: text(16),
      buildingName: text(35),
      floor: text(70),
      postBox: text(16),
      room: text(70),
      postCode: text(16),
      townName: text(35),
      townLocationName: text(35),
      districtName: text(35),
      countrySubDivision: text(35),
      addressLine: { type: 'array', maxItems: 7, items: text(70) },
      country,
    },
  },
  nationalIdentification: {
    type: 'object',
    required: ['nationalIdentifier', 'nationalIdentifierType'],
    additionalProperties: false,
    properties: {
      nationalIdentifier: text(35),
      nationalIdentifierType: {
        enum: ['ARNU', 'CCPT', 'RAID', 'DRLC', 'FIIN', 'TXID', 'SOCS', 'IDCD', 'LEIX', 'MISC'],
      },
      countryOfIssue: country,
      registrationAuthority: { type: 'string', pattern: '^RA[0-9]{6}$' },
    },
  },
  dateAndPlaceOfBirth: {
    type: 'object',
    required: ['dateOfBirth', 'placeOfBirth'],
    additionalProperties: false,
    properties: { dateOfBirth: { type: 'string', format: 'date' }, placeOfBirth: text(70) },
  },
  naturalPerson: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: ref('naturalPersonName'),
      geographicAddress: list('address'),
      nationalIdentification: ref('nationalIdentification'),
      customerIdentification: text(50),
      dateAndPlaceOfBirth: ref('dateAndPlaceOfBirth'),
      countryOfResidence: country,
    },
  },
  legalPerson: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: ref('legalPersonName'),
      geographicAddress: list('address'),
      customerNumber: text(50),
      nationalIdentification: ref('nationalIdentification'),
      countryOfRegistration: country,
    },
  },
  // Exactly-one is a semantic rule (person_one_of) so the failure names the person, not two oneOf branches.
  person: {
    type: 'object',
    additionalProperties: false,
    properties: { naturalPerson: ref('naturalPerson'), legalPerson: ref('legalPerson') },
  },
  accountNumbers: { type: 'array', items: text(100) },
  identityPayload: {
    type: 'object',
    additionalProperties: false,
    properties: {
      originator: {
        type: 'object',
        required: ['originatorPersons'],
        additionalProperties: false,
        properties: { originatorPersons: list('person', 1), accountNumber: ref('accountNumbers') },
      },
      beneficiary: {
        type: 'object',
        required: ['beneficiaryPersons'],
        additionalProperties: false,
        properties: { beneficiaryPersons: list('person', 1), accountNumber: ref('accountNumbers') },
      },
      originatingVASP: {
        type: 'object',
        required: ['originatingVASP'],
        additionalProperties: false,
        properties: { originatingVASP: ref('person') },
      },
      beneficiaryVASP: {
        type: 'object',
        additionalProperties: false,
        properties: { beneficiaryVASP: ref('person') },
      },
      transferPath: {
        type: 'object',
        additionalProperties: false,
        properties: {
          transferPath: {
            type: 'array',
            items: {
              type: 'object',
              required: ['intermediaryVASP', 'sequence'],
              additionalProperties: false,
              properties: { intermediaryVASP: ref('person'), sequence: { type: 'integer', minimum: 0 } },
            },
          },
        },
      },
      payloadMetadata: {
        type: 'object',
        additionalProperties: false,
        properties: {
          transliterationMethod: {
            type: 'array',
            items: {
              enum: ['arab', 'aran', 'armn', 'cyrl', 'deva', 'geor', 'grek', 'hani', 'hebr', 'kana', 'kore', 'thai', 'othr'],
            },
          },
        },
      },
    },
  },
} as const;

/** The IVMS101 2020 schema with every element under $defs; validate a fragment through `#/$defs/<kind>`. */
export const IVMS101_SCHEMA = {
  $id: 'https://verity.local/schemas/ivms101-2020.json',
  $defs: defs,
} as const;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addSchema(IVMS101_SCHEMA);
const compiled = new Map<Ivms101Kind, ValidateFunction>();

function validatorFor(kind: Ivms101Kind): ValidateFunction {
  let v = compiled.get(kind);
  if (v === undefined) {
    v = ajv.getSchema(`${IVMS101_SCHEMA.$id}#/$defs/${kind}`);
    if (v === undefined) throw new Error(`no IVMS101 schema for ${kind}`);
    compiled.set(kind, v);
  }
  return v;
}

/** `/originator/originatorPersons/0/naturalPerson` → `originator.originatorPersons[0].naturalPerson`. */
export function pointerToPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  }
  return out;
}

function describe(e: ErrorObject): Ivms101Issue {
  const base = pointerToPath(e.instancePath);
  const join = (child: string) => (base === '' ? child : `${base}.${child}`);
  if (e.keyword === 'required') {
    const p = (e.params as { missingProperty: string }).missingProperty;
    return { code: 'schema', path: join(p), message: `${p} is required` };
  }
  if (e.keyword === 'additionalProperties') {
    const p = (e.params as { additionalProperty: string }).additionalProperty;
    return { code: 'schema', path: join(p), message: `${p} is not an IVMS101 field here` };
  }
  return { code: 'schema', path: base, message: e.message ?? 'invalid' };
}

/** Schema errors of a value taken as the given IVMS101 element, with readable paths. */
export function schemaIssues(value: unknown, kind: Ivms101Kind): Ivms101Issue[] {
  const validate = validatorFor(kind);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describe);
}
