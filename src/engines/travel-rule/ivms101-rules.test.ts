// One negative test per IVMS101 rule, each on an otherwise valid payload built here (no shared data needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leiCheckDigits, validateIvms101, type IdentityPayload, type Ivms101Options } from './index.js';

const LEI = `5493001KJTIIGC8Y1R${leiCheckDigits('5493001KJTIIGC8Y1R')}`;

function payload(): IdentityPayload {
  return {
    originator: {
      originatorPersons: [
        {
          naturalPerson: {
            name: { nameIdentifier: [{ primaryIdentifier: 'Post', secondaryIdentifier: 'Johnny', nameIdentifierType: 'LEGL' }] },
            geographicAddress: [
              { addressType: 'GEOG', streetName: 'Potential Street', buildingNumber: '123', townName: 'Thousand Oaks', country: 'US' },
            ],
            customerIdentification: '1002390',
            dateAndPlaceOfBirth: { dateOfBirth: '1980-01-31', placeOfBirth: 'Paris' },
          },
        },
      ],
      accountNumber: ['mhtL3YVFdpTVffmLgUp4h4bcP3Su2zr5qx'],
    },
    beneficiary: {
      beneficiaryPersons: [{ naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: 'Tilcott', nameIdentifierType: 'LEGL' }] } } }],
    },
    originatingVASP: {
      originatingVASP: {
        legalPerson: {
          name: { nameIdentifier: [{ legalPersonName: 'Alice VASP', legalPersonNameIdentifierType: 'LEGL' }] },
          nationalIdentification: { nationalIdentifier: LEI, nationalIdentifierType: 'LEIX' },
          countryOfRegistration: 'US',
        },
      },
    },
  };
}

const codes = (p: unknown, o?: Ivms101Options) => validateIvms101(p, o).errors.map((e) => [e.code, e.path]);
const origin = (p: IdentityPayload) => p.originator!.originatorPersons[0]!;
const vasp = (p: IdentityPayload) => p.originatingVASP!.originatingVASP.legalPerson!;

test('the base payload is valid strictly', () => {
  assert.deepEqual(codes(payload()), []);
});

test('schema: a missing name is reported at its path', () => {
  const p = payload() as unknown as { originator: { originatorPersons: { naturalPerson: Record<string, unknown> }[] } };
  delete p.originator.originatorPersons[0]!.naturalPerson.name;
  assert.deepEqual(codes(p), [['schema', 'originator.originatorPersons[0].naturalPerson.name']]);
});

test('schema: unknown fields and bad enum values are refused', () => {
  const p = payload() as unknown as Record<string, unknown>;
  p.extra = 1;
  assert.deepEqual(codes(p), [['schema', 'extra']]);
  const q = payload();
  (origin(q).naturalPerson!.name.nameIdentifier[0] as { nameIdentifierType: string }).nameIdentifierType = 'NICK';
  assert.deepEqual(codes(q), [['schema', 'originator.originatorPersons[0].naturalPerson.name.nameIdentifier[0].nameIdentifierType']]);
});

test('person_one_of: natural and legal together, or neither', () => {
  const p = payload();
  origin(p).legalPerson = vasp(payload());
  assert.deepEqual(codes(p), [['person_one_of', 'originator.originatorPersons[0]']]);
  const q = payload();
  q.beneficiary!.beneficiaryPersons[0] = {};
  assert.deepEqual(codes(q), [['person_one_of', 'beneficiary.beneficiaryPersons[0]']]);
});

test('C1: an originator natural person with a name only fails; a beneficiary with a name only does not', () => {
  const p = payload();
  const np = origin(p).naturalPerson!;
  delete np.geographicAddress;
  delete np.customerIdentification;
  delete np.dateAndPlaceOfBirth;
  assert.deepEqual(codes(p), [['C1', 'originator.originatorPersons[0].naturalPerson']]);
  np.customerIdentification = 'c-1';
  assert.deepEqual(codes(p), []);
});

test('C2: a date of birth must be in the past', () => {
  const p = payload();
  origin(p).naturalPerson!.dateAndPlaceOfBirth!.dateOfBirth = '2030-01-01';
  assert.deepEqual(codes(p, { today: '2026-11-22' }), [
    ['C2', 'originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth'],
  ]);
});

test('C3: country codes must be ISO 3166-1 alpha-2 or XX', () => {
  const p = payload();
  origin(p).naturalPerson!.geographicAddress![0]!.country = 'UK';
  vasp(p).countryOfRegistration = 'ZZ';
  assert.deepEqual(codes(p), [
    ['C3', 'originator.originatorPersons[0].naturalPerson.geographicAddress[0].country'],
    ['C3', 'originatingVASP.originatingVASP.legalPerson.countryOfRegistration'],
  ]);
  origin(p).naturalPerson!.geographicAddress![0]!.country = 'XX';
  vasp(p).countryOfRegistration = 'GB';
  assert.deepEqual(codes(p), []);
});

test('C4: an originator legal person needs an address, national identification or customer number; a VASP does not', () => {
  const p = payload();
  const lp = vasp(payload());
  delete lp.nationalIdentification;
  origin(p).naturalPerson = undefined;
  delete origin(p).naturalPerson;
  origin(p).legalPerson = lp;
  assert.deepEqual(codes(p), [['C4', 'originator.originatorPersons[0].legalPerson']]);
  delete vasp(p).nationalIdentification;
  lp.customerNumber = 'cust-9';
  assert.deepEqual(codes(p), []);
});

test('C5 and C6: a LEGL name is required for legal and natural persons', () => {
  const p = payload();
  vasp(p).name.nameIdentifier[0]!.legalPersonNameIdentifierType = 'TRAD';
  p.beneficiary!.beneficiaryPersons[0]!.naturalPerson!.name.nameIdentifier[0]!.nameIdentifierType = 'ALIA';
  assert.deepEqual(codes(p), [
    ['C6', 'beneficiary.beneficiaryPersons[0].naturalPerson.name.nameIdentifier'],
    ['C5', 'originatingVASP.originatingVASP.legalPerson.name.nameIdentifier'],
  ]);
});

test('C7 and C9: a legal person identifier type, registration authority and no countryOfIssue', () => {
  const p = payload();
  vasp(p).nationalIdentification = { nationalIdentifier: '12345', nationalIdentifierType: 'CCPT', countryOfIssue: 'US' };
  const path = 'originatingVASP.originatingVASP.legalPerson.nationalIdentification';
  assert.deepEqual(codes(p), [
    ['C7', `${path}.nationalIdentifierType`],
    ['C9', `${path}.countryOfIssue`],
    ['C9', `${path}.registrationAuthority`],
  ]);
  vasp(p).nationalIdentification = { nationalIdentifier: '12345', nationalIdentifierType: 'RAID', registrationAuthority: 'RA000589' };
  assert.deepEqual(codes(p), []);
});

test('C8: an address needs addressLine or street with a building', () => {
  const p = payload();
  delete origin(p).naturalPerson!.geographicAddress![0]!.buildingNumber;
  assert.deepEqual(codes(p), [['C8', 'originator.originatorPersons[0].naturalPerson.geographicAddress[0]']]);
  origin(p).naturalPerson!.geographicAddress![0] = { addressType: 'HOME', addressLine: ['1 Main St, Springfield'], country: 'US' };
  assert.deepEqual(codes(p), []);
});

test('C10: registration authorities must be on the GLEIF list, or on the set the caller passes', () => {
  const p = payload();
  origin(p).naturalPerson!.nationalIdentification = {
    nationalIdentifier: 'X1',
    nationalIdentifierType: 'IDCD',
    countryOfIssue: 'FR',
    registrationAuthority: 'RA123456',
  };
  const path = 'originator.originatorPersons[0].naturalPerson.nationalIdentification.registrationAuthority';
  assert.deepEqual(codes(p), [['C10', path]]);
  assert.deepEqual(codes(p, { registrationAuthorities: new Set(['RA123456']) }), []);
});

test('C11: an LEIX identifier must pass the ISO 17442 check digits; lenient makes it a warning', () => {
  const p = payload();
  vasp(p).nationalIdentification!.nationalIdentifier = `${LEI.slice(0, 18)}00`;
  assert.deepEqual(codes(p), [['C11', 'originatingVASP.originatingVASP.legalPerson.nationalIdentification.nationalIdentifier']]);
  const lenient = validateIvms101(p, { profile: 'lenient' });
  assert.equal(lenient.valid, true);
  assert.equal(lenient.warnings.length, 1);
});

test('C12: intermediary sequence numbers are unique', () => {
  const p = payload();
  const hop = { intermediaryVASP: { legalPerson: vasp(payload()) }, sequence: 0 };
  p.transferPath = { transferPath: [hop, { ...hop }] };
  assert.deepEqual(codes(p), [['C12', 'transferPath.transferPath[1].sequence']]);
  p.transferPath.transferPath[1]!.sequence = 1;
  assert.deepEqual(codes(p), []);
});

test('fragments: C1 applies to a lone person only when asked to treat it as the originator', () => {
  const person = { naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: 'Solo', nameIdentifierType: 'LEGL' }] } } };
  assert.deepEqual(codes(person, { kind: 'person' }), []);
  assert.deepEqual(codes(person, { kind: 'person', asOriginator: true }), [['C1', 'naturalPerson']]);
});
