import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldFromValidation } from './error-handler.js';

test('validation issues name the offending field as a dotted path', () => {
  assert.equal(fieldFromValidation({ instancePath: '', params: { missingProperty: 'journey' }, keyword: 'required' }, 'body'), 'journey');
  assert.equal(fieldFromValidation({ instancePath: '/subject/country', keyword: 'pattern' }, 'body'), 'subject.country');
  assert.equal(fieldFromValidation({ instancePath: '/checks/2/type', keyword: 'enum' }, 'body'), 'checks[2].type');
  assert.equal(
    fieldFromValidation({ instancePath: '/subject', params: { additionalProperty: 'nmae' }, keyword: 'additionalProperties' }, 'body'),
    'subject.nmae',
  );
  assert.equal(fieldFromValidation({ instancePath: '/limit', keyword: 'maximum' }, 'querystring'), 'limit');
  assert.equal(fieldFromValidation({ instancePath: '', keyword: 'type' }, 'body'), 'body');
});
