import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nationalityAlpha2, screeningInputFor } from './session-input.js';
import { emptyFields } from '../kernel/index.js';

test('MRZ nationalities become the alpha-2 codes screening compares', () => {
  assert.equal(nationalityAlpha2('DEU'), 'DE');
  assert.equal(nationalityAlpha2('D'), 'DE');
  assert.equal(nationalityAlpha2('GBR'), 'GB');
  assert.equal(nationalityAlpha2('FR'), 'FR');
  assert.equal(nationalityAlpha2('UTO'), undefined);
  assert.equal(nationalityAlpha2(null), undefined);
});

test("the screening request carries name, date of birth, countries and the journey's settings, as the pipeline builds it", () => {
  const f = {
    ...emptyFields(),
    given_names: 'ANNA MARIA',
    surname: 'ERIKSSON',
    date_of_birth: '1974-08-12',
    nationality: 'SWE',
    sex: 'F' as const,
  };
  assert.deepEqual(screeningInputFor(f, { datasets: ['sanctions'], threshold: 0.85 }, { reference: 'cust_1', country: 'NO' }), {
    name: 'ANNA MARIA ERIKSSON',
    entity_type: 'person',
    date_of_birth: '1974-08-12',
    countries: ['SE', 'NO'],
    datasets: ['sanctions'],
    threshold: 0.85,
    subject_reference: 'cust_1',
  });
  assert.deepEqual(screeningInputFor({ ...f, nationality: 'D' }, {}, { reference: null, country: 'DE' })!.countries, ['DE']);
  assert.deepEqual(screeningInputFor({ ...emptyFields(), surname: 'X' }, {}, { reference: null, country: null }), {
    name: 'X',
    entity_type: 'person',
  });
  assert.equal(screeningInputFor(emptyFields(), {}, { reference: 'cust_1', country: null }), null);
});
