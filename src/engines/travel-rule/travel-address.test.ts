import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeTravelAddress, encodeTravelAddress, makeTravelAddress, TravelAddressError, travelAddressUrl } from './index.js';

// Test vector from TRISA pkg/openvasp/traddr/traddr_test.go (OpenVASP TRP specification example).
const URI = 'beneficiary.com/x/12345?t=i';
const TA = 'ta2W2HPKfHxgSgrzY178knqXHg1H3jfeQrwQ9JrKBs9wv';

test('encode and decode match the TRISA / TRP test vector', () => {
  assert.equal(encodeTravelAddress(URI), TA);
  assert.equal(decodeTravelAddress(TA), URI);
  assert.equal(travelAddressUrl(TA), `https://${URI}`);
});

test('round trip for several URLs, including localhost and ports', () => {
  for (const uri of ['vasp.example.org/trp/transfers?t=i', 'localhost:8443/transfers/a/42?t=i', 'a.b.co.uk/x?q=1&t=i']) {
    assert.equal(decodeTravelAddress(encodeTravelAddress(uri)), uri);
  }
});

test('makeTravelAddress strips the scheme and adds t=i', () => {
  assert.equal(decodeTravelAddress(makeTravelAddress('https://beneficiary.com/x/12345')), URI);
});

test('errors: missing prefix, bad checksum, a scheme, missing t=i, no TLD', () => {
  assert.throws(() => decodeTravelAddress(TA.slice(2)), TravelAddressError);
  const flipped = TA.slice(0, -1) + (TA.endsWith('v') ? 'w' : 'v');
  assert.throws(() => decodeTravelAddress(flipped), TravelAddressError);
  assert.throws(() => encodeTravelAddress(`https://${URI}`), /no scheme/);
  assert.throws(() => encodeTravelAddress('beneficiary.com/x/12345'), /t=i/);
  assert.throws(() => encodeTravelAddress('beneficiary/x?t=i'), /top-level domain/);
});
