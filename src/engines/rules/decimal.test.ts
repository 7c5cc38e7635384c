import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DecimalError,
  addDecimal,
  compareDecimal,
  fromScaledUnits,
  isDecimalString,
  multiplyByRatio,
  parseDecimal,
  subtractDecimal,
  toScaledUnits,
  divideRounded,
} from './decimal.js';
import { amountProblem, currencyMinorUnits, isCurrencyCode } from './currency.js';

test('rejects malformed, exponent and over-long decimal strings', () => {
  for (const bad of [
    '',
    ' 1',
    '1 ',
    '+1',
    '1e3',
    '1E-2',
    '.5',
    '5.',
    '01',
    '00.1',
    '1,000',
    '1.2.3',
    'NaN',
    'Infinity',
    '0x10',
    '--1',
    '１',
  ]) {
    assert.equal(isDecimalString(bad), false, bad);
  }
  assert.throws(
    () => parseDecimal('1'.repeat(31)),
    (e: unknown) => e instanceof DecimalError && e.code === 'too_many_digits',
  );
  assert.throws(
    () => parseDecimal('0.' + '1'.repeat(19)),
    (e: unknown) => e instanceof DecimalError && e.code === 'too_many_fraction_digits',
  );
  assert.throws(() => parseDecimal(12 as unknown as string), DecimalError);
  for (const ok of ['0', '0.00', '-1.5', '123456789012.123456789012345678', '1'.repeat(30)]) assert.equal(isDecimalString(ok), true, ok);
});

test('compare, add, subtract and multiply are exact', () => {
  assert.equal(compareDecimal('1.10', '1.1'), 0);
  assert.equal(compareDecimal('9999.99', '10000'), -1);
  assert.equal(compareDecimal('-0.01', '0'), -1);
  assert.equal(addDecimal('0.1', '0.2'), '0.3');
  assert.equal(subtractDecimal('1', '1.000000000000000001'), '-0.000000000000000001');
  assert.equal(multiplyByRatio('1234.56', '0.8'), '987.648');
  assert.equal(multiplyByRatio('10', '0'), '0');
});

test('scaled units refuse to drop digits and round-trip', () => {
  assert.equal(toScaledUnits('12.34', 2), 1234n);
  assert.equal(toScaledUnits('12.3', 4), 123000n);
  assert.throws(() => toScaledUnits('12.345', 2), DecimalError);
  assert.equal(fromScaledUnits(-5n, 3), '-0.005');
  assert.equal(fromScaledUnits(1200n, 2), '12');
  assert.equal(divideRounded(25n, 1, 10n, 1), '0.2'); // 0.25 half-even → 0.2
  assert.equal(divideRounded(35n, 1, 10n, 1), '0.4');
});

test('ten thousand 0.01 amounts sum to exactly 100', () => {
  let s = '0';
  for (let i = 0; i < 10_000; i++) s = addDecimal(s, '0.01');
  assert.equal(s, '100');
});

test('ISO 4217 minor units and amount checks', () => {
  assert.equal(currencyMinorUnits('USD'), 2);
  assert.equal(currencyMinorUnits('JPY'), 0);
  assert.equal(currencyMinorUnits('KWD'), 3);
  assert.equal(currencyMinorUnits('CLF'), 4);
  assert.equal(currencyMinorUnits('XAU'), null);
  assert.equal(currencyMinorUnits('HRK'), undefined);
  assert.equal(isCurrencyCode('usd'), false);
  assert.equal(amountProblem('10.50', 'USD'), null);
  assert.equal(amountProblem('10.500', 'USD'), null);
  assert.match(amountProblem('10.505', 'USD')!, /2 minor digits/);
  assert.match(amountProblem('100.5', 'JPY')!, /0 minor digits/);
  assert.match(amountProblem('-1', 'EUR')!, /negative/);
  assert.match(amountProblem('1e3', 'EUR')!, /plain decimal/);
  assert.match(amountProblem('1', 'BTC')!, /ISO 4217/);
});
