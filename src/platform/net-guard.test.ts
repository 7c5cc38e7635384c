import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDestinationUrl, isPrivateAddress } from './net-guard.js';

test('private, loopback and link-local addresses are recognised in both families', () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
  ])
    assert.ok(isPrivateAddress(a), a);
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) assert.ok(!isPrivateAddress(a), a);
});

test('destination URLs: https in production, no credentials, no private literals unless allowed', () => {
  const prod = { requireHttps: true, allowPrivateNetworks: false };
  assert.equal(checkDestinationUrl('https://hooks.bank.example/verity', prod), null);
  assert.match(checkDestinationUrl('http://hooks.bank.example/', prod)!, /https/);
  assert.match(checkDestinationUrl('https://127.0.0.1/x', prod)!, /loopback/);
  assert.match(checkDestinationUrl('https://[::1]/x', prod)!, /loopback/);
  assert.match(checkDestinationUrl('https://localhost/x', prod)!, /loopback/);
  assert.match(checkDestinationUrl('https://u:p@hooks.example/', prod)!, /credentials/);
  assert.match(checkDestinationUrl('ftp://x/', prod)!, /https/);
  assert.equal(checkDestinationUrl('http://127.0.0.1:9/x', { requireHttps: false, allowPrivateNetworks: true }), null);
});
