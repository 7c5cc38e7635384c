import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidLei, leiCheckDigits } from './lei.js';

test('valid LEIs from GLEIF and the TRP fixtures pass', () => {
  for (const lei of ['506700T7Z685VUOZL877', 'GTFZ00N6IHYMHHNT8S51', 'TVYD005I7Q5IJK0EMI53', '283100RWUNF913WOJT02']) {
    assert.equal(isValidLei(lei), true, lei);
  }
});

test('wrong check digits, a swapped character, bad shapes fail', () => {
  assert.equal(isValidLei('213800AQUAUP6I215N33'), false); // TRISA fixture; mod 97 = 40
  assert.equal(isValidLei('506700T7Z685VUOZL878'), false);
  assert.equal(isValidLei('506700T7Z685VUOZ L877'), false);
  assert.equal(isValidLei('056700T7Z685VUOZL877'), false);
  assert.equal(isValidLei('506700t7z685vuozl877'), false);
  assert.equal(isValidLei('506700T7Z685VUOZL8'), false);
});

test('leiCheckDigits computes the digits that make an LEI valid', () => {
  assert.equal(leiCheckDigits('506700T7Z685VUOZL8'), '77');
  assert.equal(isValidLei(`ABCDEFGHIJ12345678${leiCheckDigits('ABCDEFGHIJ12345678')}`), true);
  assert.throws(() => leiCheckDigits('short'), RangeError);
});
