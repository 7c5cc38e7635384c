// TRP message parsing and building on the shared OpenVASP fixtures.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  numberToDecimal,
  parseConfirmation,
  parseInquiry,
  parseResolution,
  serializeConfirmation,
  serializeInquiry,
  serializeResolution,
  buildInquiryRequest,
  readRejectionComment,
  rejectionComment,
} from './index.js';

const dir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_openvasp_trp/', import.meta.url));
const skip = existsSync(dir) ? false : 'needs ../shared/data/travel_rule (not in a bare clone)';
const raw = (f: string) => readFileSync(dir + f, 'utf8');

test('both inquiry fixtures parse, amounts as decimal strings, and rebuild to the same JSON', { skip }, () => {
  for (const [file, amount, asset] of [
    ['inquiry.json', '1', { slip0044: 'BTC' }],
    ['client/inquiry.json', '0.000021', { dti: '4H95J0R2X' }],
  ] as const) {
    const p = parseInquiry(raw(file));
    assert.ok(p.ok, file);
    assert.equal(p.value.amount, amount);
    assert.deepEqual(p.value.asset, asset);
    assert.deepEqual(p.warnings, []);
    assert.deepEqual(JSON.parse(serializeInquiry(p.value)), JSON.parse(raw(file)), file);
  }
});

test('resolution fixtures: approved, rejected, acknowledged; round trip', { skip }, () => {
  const approved = parseResolution(raw('client/approved.json'));
  assert.ok(approved.ok);
  assert.deepEqual(approved.value, {
    kind: 'approved',
    address: 'some payment address',
    callback: 'https://beneficiary.com/implementation/defined/path/for/transferConfirmation',
  });
  const rejected = parseResolution(raw('client/rejected.json'));
  assert.ok(rejected.ok);
  assert.deepEqual(rejected.value, { kind: 'rejected', comment: 'human readable comment' });
  const ack = parseResolution(raw('client/acknowledged.json'));
  assert.ok(ack.ok);
  assert.deepEqual(ack.value, { kind: 'acknowledged', version: '3.2.1' });
  for (const f of ['client/approved.json', 'client/rejected.json', 'client/acknowledged.json']) {
    const p = parseResolution(raw(f));
    assert.ok(p.ok);
    assert.deepEqual(JSON.parse(serializeResolution(p.value)), JSON.parse(raw(f)), f);
  }
});

test('confirmation fixtures: txid and canceled; round trip', { skip }, () => {
  for (const [f, expected] of [
    ['client/confirmation.json', { kind: 'txid', txid: '[some asset-specific tx identifier]' }],
    ['client/canceled.json', { kind: 'canceled', comment: 'human readable comment' }],
  ] as const) {
    const p = parseConfirmation(raw(f));
    assert.ok(p.ok, f);
    assert.deepEqual(p.value, expected);
    assert.deepEqual(JSON.parse(serializeConfirmation(p.value)), JSON.parse(raw(f)));
  }
});

test('invalid messages are refused with the TRP reason', () => {
  const bad = (r: { ok: boolean; error?: { status: number; message: string } }) => (r.ok ? 'ok' : `${r.error!.status} ${r.error!.message}`);
  assert.equal(bad(parseResolution('{}')), '400 invalid: must specify one of version, approved, or rejected');
  assert.equal(
    bad(parseResolution('{"rejected":"x","version":"3.1.0"}')),
    '400 invalid: may specify only one of version, approved, or rejected',
  );
  assert.equal(bad(parseResolution('{"approved":{"callback":"https://a.com/x"}}')), '400 invalid: payment address is required');
  assert.equal(bad(parseConfirmation('{"txid":"a","canceled":"b"}')), '400 invalid: cannot specify both txid and canceled in confirmation');
  assert.equal(bad(parseConfirmation('{}')), '400 invalid: must specify either txid or canceled in confirmation');
  assert.equal(bad(parseInquiry('not json')), '400 body is not JSON');
  assert.equal(
    bad(parseInquiry('{"asset":{},"amount":1,"callback":"https://a.com","IVMS101":{}}')),
    '400 invalid: must specify either DTI or SLIP-0044 asset identifier',
  );
  assert.equal(
    bad(parseInquiry('{"asset":{"dti":"X"},"amount":0,"callback":"https://a.com","IVMS101":{}}')),
    '400 invalid: must specify a non-zero amount',
  );
});

test('an inquiry whose IVMS101 breaks the standard is a 422 with the IVMS101 paths', { skip }, () => {
  const inquiry = JSON.parse(raw('inquiry.json'));
  delete inquiry.IVMS101.originator.originatorPersons[0].naturalPerson.geographicAddress;
  delete inquiry.IVMS101.originator.originatorPersons[0].naturalPerson.customerIdentification;
  const p = parseInquiry(JSON.stringify(inquiry));
  assert.equal(p.ok, false);
  if (!p.ok) {
    assert.equal(p.error.status, 422);
    assert.deepEqual(
      p.error.issues?.map((i) => [i.code, i.path]),
      [['C1', 'originator.originatorPersons[0].naturalPerson']],
    );
  }
});

test('amounts go on the wire digit for digit and come back as decimal strings', () => {
  const req = buildInquiryRequest(
    { asset: { slip0044: 60 }, amount: '0.123456789012345678', callback: 'https://o.example/cb', ivms101: {} },
    'req-1',
  );
  assert.match(req.body, /"amount":0\.123456789012345678,/);
  assert.equal(req.headers['api-version'], '3.1.0');
  assert.equal(req.headers['request-identifier'], 'req-1');
  assert.throws(() => serializeInquiry({ asset: { dti: 'X' }, amount: '1e3', callback: 'https://x.com', ivms101: {} }), RangeError);
  assert.throws(() => serializeInquiry({ asset: { dti: 'X' }, amount: '0.00', callback: 'https://x.com', ivms101: {} }), RangeError);
  assert.equal(numberToDecimal(1e-7), '0.0000001');
  assert.equal(numberToDecimal(2.5e-8), '0.000000025');
  assert.equal(numberToDecimal(1e21), '1000000000000000000000');
  assert.equal(numberToDecimal(0.000021), '0.000021');
});

test('rejection comments carry our reject code and read back with the retry flag', () => {
  const c = rejectionComment('missing_fields', 'beneficiary address missing');
  assert.equal(c, 'missing_fields: beneficiary address missing');
  assert.deepEqual(readRejectionComment(c), { code: 'missing_fields', retryable: true, message: 'beneficiary address missing' });
  assert.deepEqual(readRejectionComment('HIGH_RISK: no'), { code: 'high_risk', retryable: false, message: 'no' });
  assert.deepEqual(readRejectionComment('human readable comment'), { message: 'human readable comment' });
  assert.deepEqual(readRejectionComment('Note: something'), { message: 'Note: something' });
});
