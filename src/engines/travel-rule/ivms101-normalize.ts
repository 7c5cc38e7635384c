// Counterparties send IVMS101 in more than one JSON dialect: protojson from TRISA's Go structs
// (snake_case, plural list names, enum prefixes such as NATURAL_PERSON_NAME_TYPE_CODE_LEGL, empty
// strings for absent fields) and loose spellings TRISA's decoder accepts (firstName, dob, ra, …).
// normalizeIvms101 rewrites them to the canonical 2020 JSON before validation and lists each rewrite,
// so a reviewer can see what was changed. Unknown keys are kept for the schema to report.
import { countryCodeForName } from './countries.js';
import type { Ivms101Kind } from './ivms101-types.js';

type Node =
  | 'payload'
  | 'originator'
  | 'beneficiary'
  | 'originatingVASP'
  | 'beneficiaryVASP'
  | 'transferPath'
  | 'hop'
  | 'payloadMetadata'
  | 'person'
  | 'naturalPerson'
  | 'legalPerson'
  | 'naturalName'
  | 'legalName'
  | 'naturalNameId'
  | 'legalNameId'
  | 'address'
  | 'nationalIdentification'
  | 'dateAndPlaceOfBirth'
  | 'leaf'
  | 'leafList';

/** canonical field → [child node, aliases (compared without case and underscores)] per node. */
const FIELDS: Partial<Record<Node, Record<string, [Node, string[]]>>> = {
  payload: {
    originator: ['originator', []],
    beneficiary: ['beneficiary', []],
    originatingVASP: ['originatingVASP', []],
    beneficiaryVASP: ['beneficiaryVASP', []],
    transferPath: ['transferPath', []],
    payloadMetadata: ['payloadMetadata', []],
  },
  originator: { originatorPersons: ['person', []], accountNumber: ['leafList', ['accountNumbers']] },
  beneficiary: { beneficiaryPersons: ['person', []], accountNumber: ['leafList', ['accountNumbers']] },
  originatingVASP: { originatingVASP: ['person', []] },
  beneficiaryVASP: { beneficiaryVASP: ['person', []] },
  transferPath: { transferPath: ['hop', []] },
  hop: { intermediaryVASP: ['person', []], sequence: ['leaf', []] },
  payloadMetadata: { transliterationMethod: ['leafList', []] },
  person: { naturalPerson: ['naturalPerson', []], legalPerson: ['legalPerson', []] },
  naturalPerson: {
    name: ['naturalName', []],
    geographicAddress: ['address', ['geographicAddresses', 'addresses', 'address']],
    nationalIdentification: ['nationalIdentification', []],
    customerIdentification: ['leaf', []],
    dateAndPlaceOfBirth: ['dateAndPlaceOfBirth', []],
    countryOfResidence: ['leaf', []],
  },
  legalPerson: {
    name: ['legalName', []],
    geographicAddress: ['address', ['geographicAddresses', 'addresses', 'address']],
    customerNumber: ['leaf', []],
    nationalIdentification: ['nationalIdentification', []],
    countryOfRegistration: ['leaf', ['country']],
  },
  naturalName: {
    nameIdentifier: ['naturalNameId', ['nameIdentifiers']],
    localNameIdentifier: ['naturalNameId', ['localNameIdentifiers']],
    phoneticNameIdentifier: ['naturalNameId', ['phoneticNameIdentifiers']],
  },
  legalName: {
    nameIdentifier: ['legalNameId', ['nameIdentifiers']],
    localNameIdentifier: ['legalNameId', ['localNameIdentifiers']],
    phoneticNameIdentifier: ['legalNameId', ['phoneticNameIdentifiers']],
  },
  naturalNameId: {
    primaryIdentifier: ['leaf', ['lastName', 'surname', 'familyName']],
    secondaryIdentifier: ['leaf', ['firstName', 'givenName', 'forename']],
    nameIdentifierType: ['leaf', []],
  },
  legalNameId: { legalPersonName: ['leaf', ['name']], legalPersonNameIdentifierType: ['leaf', []] },
  address: {
    addressType: ['leaf', []],
    department: ['leaf', []],
    subDepartment: ['leaf', []],
    streetName: ['leaf', ['street']],
    buildingNumber: ['leaf', ['number']],
    buildingName: ['leaf', []],
    floor: ['leaf', []],
    postBox: ['leaf', []],
    room: ['leaf', []],
    postCode: ['leaf', ['postalCode', 'zipCode', 'zip']],
    townName: ['leaf', ['town', 'city']],
    townLocationName: ['leaf', []],
    districtName: ['leaf', []],
    countrySubDivision: ['leaf', ['state', 'province']],
    addressLine: ['leafList', ['addressLines']],
    country: ['leaf', []],
  },
  nationalIdentification: {
    nationalIdentifier: ['leaf', []],
    nationalIdentifierType: ['leaf', []],
    countryOfIssue: ['leaf', ['country']],
    registrationAuthority: ['leaf', ['ra']],
  },
  dateAndPlaceOfBirth: { dateOfBirth: ['leaf', ['dob', 'birthDate']], placeOfBirth: ['leaf', ['pob', 'birthPlace']] },
};

const squash = (k: string) => k.replace(/_/g, '').toLowerCase();
const lookup = new Map<Node, Map<string, [string, Node]>>();
for (const [node, fields] of Object.entries(FIELDS) as [Node, Record<string, [Node, string[]]>][]) {
  const m = new Map<string, [string, Node]>();
  for (const [canon, [child, aliases]] of Object.entries(fields)) {
    for (const k of [canon, ...aliases]) m.set(squash(k), [canon, child]);
  }
  lookup.set(node, m);
}

const COUNTRY_FIELDS = new Set(['country', 'countryOfIssue', 'countryOfResidence', 'countryOfRegistration']);
const KIND_NODE: Record<Ivms101Kind, Node> = {
  identityPayload: 'payload',
  person: 'person',
  naturalPerson: 'naturalPerson',
  legalPerson: 'legalPerson',
  address: 'address',
  nationalIdentification: 'nationalIdentification',
};

export interface NormalizeResult {
  value: unknown;
  /** One line per rewrite, e.g. "originator.originator_persons → originatorPersons". */
  changes: string[];
}

function leaf(value: unknown, field: string, path: string, changes: string[]): unknown {
  if (typeof value !== 'string') return value;
  // protojson enums: NATURAL_PERSON_NAME_TYPE_CODE_LEGL → LEGL
  const m = /^[A-Z_]+_CODE_([A-Z]{4})$/.exec(value);
  if (m) {
    changes.push(`${path}: ${value} → ${m[1]}`);
    return m[1];
  }
  if (COUNTRY_FIELDS.has(field) && value.length > 2) {
    const code = countryCodeForName(value);
    if (code) {
      changes.push(`${path}: ${value} → ${code}`);
      return code;
    }
  }
  return value;
}

function isEmpty(v: unknown): boolean {
  return (
    v === '' ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
  );
}

function walk(value: unknown, node: Node, path: string, changes: string[]): unknown {
  if (Array.isArray(value)) {
    return value.map((v, i) => walk(v, node, `${path}[${i}]`, changes)).filter((v) => !isEmpty(v));
  }
  const fields = lookup.get(node);
  if (fields === undefined || typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (key === '@type') continue; // protojson Any wrapper marker
    const hit = fields.get(squash(key));
    const canon = hit?.[0] ?? key;
    const childPath = path === '' ? canon : `${path}.${canon}`;
    if (hit && canon !== key) changes.push(`${path === '' ? key : `${path}.${key}`} → ${canon}`);
    const child = hit?.[1];
    let v: unknown;
    if (child === 'leaf') v = leaf(raw, canon, childPath, changes);
    else if (child === 'leafList') v = Array.isArray(raw) ? raw.map((x) => leaf(x, canon, childPath, changes)) : raw;
    else v = child ? walk(raw, child, childPath, changes) : raw;
    if (!isEmpty(v)) out[canon] = v;
  }
  return out;
}

/** Rewrite a protojson or loosely spelled IVMS101 document to canonical IVMS101 2020 JSON. */
export function normalizeIvms101(value: unknown, kind: Ivms101Kind = 'identityPayload'): NormalizeResult {
  const changes: string[] = [];
  return { value: walk(value, KIND_NODE[kind], '', changes), changes };
}
