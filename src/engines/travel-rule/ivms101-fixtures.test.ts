// The shared TRISA IVMS101 fixtures and the TRP inquiries: all valid except person_both_persons.json.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { normalizeIvms101, validateIvms101, type Ivms101Kind } from './index.js';

const dir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_ivms101/', import.meta.url));
const trpDir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_openvasp_trp/', import.meta.url));
const skip = existsSync(dir) ? false : 'needs ../shared/data/travel_rule (not in a bare clone)';
const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

// Each fixture is one IVMS101 element; the file name says which (as in TRISA's Go tests).
function kindOf(file: string): Ivms101Kind {
  if (file === 'address.json') return 'address';
  if (file === 'legal_person.json') return 'legalPerson';
  if (file === 'natural_person.json') return 'naturalPerson';
  if (file === 'national_identification.json') return 'nationalIdentification';
  if (file.startsWith('person_')) return 'person';
  return 'identityPayload';
}

test('every TRISA IVMS101 fixture validates (lenient profile, normalised) except person_both_persons.json', { skip }, () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, 10);
  for (const file of files) {
    const kind = kindOf(file);
    const { value } = normalizeIvms101(read(dir + file), kind);
    const result = validateIvms101(value, { kind, profile: 'lenient' });
    if (file === 'person_both_persons.json') {
      assert.equal(result.valid, false, file);
      assert.deepEqual(
        result.errors.map((e) => [e.code, e.path, e.message]),
        [['person_one_of', '', 'a person is a naturalPerson or a legalPerson, never both']],
      );
    } else {
      assert.deepEqual(result.errors, [], file);
      assert.equal(result.valid, true, file);
    }
  }
});

test('canonical fixtures validate as they are, without normalising', { skip }, () => {
  for (const file of ['identity_payload.json', 'address.json', 'natural_person.json', 'legal_person.json']) {
    assert.equal(validateIvms101(read(dir + file), { kind: kindOf(file) }).valid, true, file);
  }
});

test('the protojson and loosely spelled payloads need the normaliser, which says what it rewrote', { skip }, () => {
  for (const file of ['identity_payload.pb.json', 'identity_payload_alt.json']) {
    assert.equal(validateIvms101(read(dir + file)).valid, false, `${file} raw`);
    const { changes } = normalizeIvms101(read(dir + file));
    assert.ok(changes.length > 5, file);
  }
  const pb = normalizeIvms101(read(dir + 'identity_payload.pb.json'));
  assert.ok(pb.changes.includes('beneficiary.beneficiaryPersons[0].naturalPerson.geographicAddress[0].country: United Kingdom → GB'));
  const alt = normalizeIvms101(read(dir + 'identity_payload_alt.json'));
  assert.ok(alt.changes.includes('originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dob → dateOfBirth'));
});

test('strict profile: the fixtures whose LEIs fail ISO 17442 check digits (C11) fail, with the path', { skip }, () => {
  const r = validateIvms101(read(dir + 'person_legal_person.json'), { kind: 'person' });
  assert.equal(r.valid, false);
  assert.deepEqual(
    r.errors.map((e) => [e.code, e.path]),
    [['C11', 'legalPerson.nationalIdentification.nationalIdentifier']],
  );
  const lenient = validateIvms101(read(dir + 'person_legal_person.json'), { kind: 'person', profile: 'lenient' });
  assert.equal(lenient.valid, true);
  assert.equal(lenient.warnings[0]?.code, 'C11');
  // The protojson payload also sets countryOfIssue on the VASPs' LEIs (C9) and uses two bad LEIs.
  const pb = validateIvms101(normalizeIvms101(read(dir + 'identity_payload.pb.json')).value);
  assert.deepEqual(pb.errors.map((e) => e.code).sort(), ['C11', 'C11', 'C9', 'C9']);
});

test('both TRP inquiry fixtures validate strictly, beneficiaries carrying only a name (C1 is originator-only)', { skip }, () => {
  for (const file of ['inquiry.json', 'client/inquiry.json']) {
    const inquiry = read(trpDir + file) as { IVMS101: unknown };
    const r = validateIvms101(inquiry.IVMS101);
    assert.deepEqual(r.errors, [], file);
  }
});

test('the protojson identities inside the TRISA envelope payload fixtures validate once normalised (lenient)', { skip }, () => {
  const root = fileURLToPath(new URL('../../../../shared/data/travel_rule/', import.meta.url));
  const docs: [string, unknown][] = [
    ['trisa_envelope/payload.json', (read(root + 'trisa_envelope/payload.json') as { identity: unknown }).identity],
    ['trisa_envelope/pending_payload.json', (read(root + 'trisa_envelope/pending_payload.json') as { identity: unknown }).identity],
    ['trisa_envelope/payload/identity.json', read(root + 'trisa_envelope/payload/identity.json')],
    ['trisa_openvasp_trp/identity.json', read(root + 'trisa_openvasp_trp/identity.json')],
  ];
  for (const [name, doc] of docs) {
    const r = validateIvms101(normalizeIvms101(doc).value, { profile: 'lenient' });
    assert.deepEqual(r.errors, [], name);
    // Same VASP LEIs as identity_payload.pb.json: two bad check digits, two countryOfIssue on legal persons.
    assert.deepEqual(r.warnings.map((w) => w.code).sort(), ['C11', 'C11', 'C9', 'C9'], name);
  }
});
