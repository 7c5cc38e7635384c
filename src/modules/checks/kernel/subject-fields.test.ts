import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { fieldsFromDocument, SubjectFields } from './subject-fields.js';
import type { DocumentFields } from '../../../engines/document/index.js';

test('fields of a zone read from noise: values a field cannot hold are dropped, so the session can always be served', () => {
  // What the reader made of a photo of random pixels (a TD1 "visa" whose check digits fail; found by the stateful fuzz
  // test, where GET /v1/verifications/{id} then failed to serialise the nationality as a 500).
  const read = {
    documentType: 'visa',
    documentCode: 'V1',
    issuingState: 'EQS',
    documentNumber: '2WL<EQ233',
    surname: 'WA3SLQJREET3ISAIV3AI<3JM3IATT3',
    givenNames: '',
    nationality: 'S3Z',
    birthDate: '1999-02-30',
    sex: 'M',
    expiryDate: null,
  } as unknown as DocumentFields;
  const f = fieldsFromDocument(read);
  assert.deepEqual(
    [f.nationality, f.issuing_country, f.date_of_birth, f.document_number, f.surname, f.given_names],
    [null, 'EQS', null, '2WL EQ233', 'WA3SLQJREET3ISAIV3AI 3JM3IATT3', null],
  );
  assert.ok(Value.Check(SubjectFields, f));
});

test('a well-read zone passes through: filler removed, Germany as D, real dates kept', () => {
  const f = fieldsFromDocument({
    documentType: 'passport',
    issuingState: 'D<<',
    documentNumber: 'C01X00T47',
    surname: 'MUSTERMANN',
    givenNames: 'ERIKA<<',
    nationality: 'D<<',
    birthDate: '1964-08-12',
    sex: 'F',
    expiryDate: '2031-10-31',
  } as unknown as DocumentFields);
  assert.deepEqual(f, {
    given_names: 'ERIKA',
    surname: 'MUSTERMANN',
    date_of_birth: '1964-08-12',
    sex: 'F',
    nationality: 'D',
    document_type: 'passport',
    document_number: 'C01X00T47',
    issuing_country: 'D',
    expiry_date: '2031-10-31',
  });
});
