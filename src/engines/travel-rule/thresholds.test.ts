import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDecimal, decideThreshold, thresholdFor } from './index.js';

test('FATF default: below USD/EUR 1,000 is saved, 1,000 and above needs the full message', () => {
  assert.equal(decideThreshold('FATF', { value: '999.99', currency: 'USD' }).outcome, 'saved');
  assert.equal(decideThreshold('FATF', { value: '1000', currency: 'EUR' }).outcome, 'required');
  assert.equal(decideThreshold('FATF', { value: '1000.00', currency: 'USD' }).reason, 'at_or_above_threshold');
  // A jurisdiction without its own entry falls back to FATF.
  const d = decideThreshold('JP', { value: '10', currency: 'USD' });
  assert.deepEqual(
    [d.outcome, d.thresholdApplied.jurisdiction, d.thresholdApplied.threshold],
    ['saved', 'FATF', { value: '1000', currency: 'USD' }],
  );
});

test('EU (and its members): every transfer needs the message', () => {
  for (const j of ['EU', 'DE', 'fr']) {
    const d = decideThreshold(j, { value: '0.01', currency: 'EUR' });
    assert.deepEqual([d.outcome, d.reason, d.thresholdApplied.jurisdiction], ['required', 'no_threshold', 'EU']);
  }
});

test('US 3,000 USD, CH 1,000 CHF, SG 1,500 SGD, UK (and GB) 1,000 EUR', () => {
  assert.equal(decideThreshold('US', { value: '2999.99', currency: 'USD' }).outcome, 'saved');
  assert.equal(decideThreshold('US', { value: '3000', currency: 'USD' }).outcome, 'required');
  assert.equal(decideThreshold('CH', { value: '999', currency: 'CHF' }).outcome, 'saved');
  assert.equal(decideThreshold('SG', { value: '1499.999', currency: 'SGD' }).outcome, 'saved');
  assert.equal(decideThreshold('SG', { value: '1500', currency: 'SGD' }).outcome, 'required');
  assert.equal(thresholdFor('GB').jurisdiction, 'UK');
  assert.equal(decideThreshold('GB', { value: '1000', currency: 'EUR' }).outcome, 'required');
});

test('an amount in a currency the threshold is not stated in fails safe to required', () => {
  const d = decideThreshold('US', { value: '5', currency: 'EUR' });
  assert.deepEqual([d.outcome, d.reason], ['required', 'currency_not_converted']);
});

test('compareDecimal is exact where floats are not', () => {
  assert.equal(compareDecimal('999.9999999999999999', '1000'), -1);
  assert.equal(compareDecimal('1000.000', '1000'), 0);
  assert.equal(compareDecimal('0.30000000000000001', '0.3'), 1);
  assert.throws(() => compareDecimal('-1', '0'), RangeError);
  assert.throws(() => compareDecimal('1e3', '0'), RangeError);
});
