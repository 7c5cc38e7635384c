import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { transition } from '../../engines/travel-rule/index.js';
import { actionForTrpMessage, classifyTrpPath, handleTrpRequest } from './index.js';

const dir = fileURLToPath(new URL('../../../../shared/data/travel_rule/trisa_openvasp_trp/', import.meta.url));
const skip = existsSync(dir) ? false : 'needs ../shared/data/travel_rule (not in a bare clone)';
const headers = { 'API-Version': '3.1.0', 'Request-Identifier': 'abc-123', 'Content-Type': 'application/json; charset=utf-8' };

test('a valid inquiry is parsed and the request identifier echoed', { skip }, () => {
  const r = handleTrpRequest('inquiry', { headers, body: readFileSync(dir + 'inquiry.json', 'utf8') });
  assert.ok(r.ok);
  assert.equal(r.requestIdentifier, 'abc-123');
  assert.equal(r.message.kind, 'inquiry');
  assert.deepEqual(r.responseHeaders, { 'api-version': '3.1.0', 'request-identifier': 'abc-123' });
});

test('header checks: version, request identifier, content type', () => {
  const body = '{"txid":"0xabc"}';
  const status = (h: Record<string, string>) => {
    const r = handleTrpRequest('confirmation', { headers: h, body });
    return r.ok ? 200 : r.error.status;
  };
  assert.equal(status(headers), 200);
  assert.equal(status({ ...headers, 'API-Version': '3.2.1' }), 200);
  assert.equal(status({ ...headers, 'API-Version': '2.0.0' }), 400);
  const { 'API-Version': _v, ...noVersion } = headers;
  assert.equal(status(noVersion), 400);
  const { 'Request-Identifier': _r, ...noId } = headers;
  assert.equal(status(noId), 400);
  assert.equal(status({ ...headers, 'Content-Type': 'text/plain' }), 415);
  const { 'Content-Type': _c, ...noType } = headers;
  assert.equal(status(noType), 200);
});

test('body errors come back as TRP errors for each kind', () => {
  const r = handleTrpRequest('resolution', { headers, body: '{"approved":{"address":"a"}}' });
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual([r.error.status, r.error.message], [400, 'invalid: callback URL is required']);
  const c = handleTrpRequest('confirmation', { headers, body: { canceled: 'customer withdrew' } });
  assert.ok(c.ok && c.message.kind === 'confirmation' && c.message.confirmation.kind === 'canceled');
});

test('default route classification', () => {
  assert.equal(classifyTrpPath('/trp/transfers'), 'inquiry');
  assert.equal(classifyTrpPath('/trp/transfers/a/42'), 'inquiry');
  assert.equal(classifyTrpPath('/trp/transfers/9f1c/resolve'), 'resolution');
  assert.equal(classifyTrpPath('/trp/transfers/9f1c/confirm/?x=1'), 'confirmation');
});

test('received TRP messages drive the outgoing lifecycle: approved → accept, txid → confirm', () => {
  const resolution = handleTrpRequest('resolution', { headers, body: { approved: { address: 'bc1q', callback: 'https://b.example/c' } } });
  const confirmation = handleTrpRequest('confirmation', { headers, body: { txid: '0xabc' } });
  const rejected = handleTrpRequest('resolution', { headers, body: { rejected: 'no' } });
  const ack = handleTrpRequest('resolution', { headers, body: { version: '3.1.0' } });
  assert.ok(resolution.ok && confirmation.ok && rejected.ok && ack.ok);
  const accept = actionForTrpMessage(resolution.message)!;
  assert.equal(accept, 'accept');
  assert.equal(transition('outgoing', transition('outgoing', 'sent', accept), actionForTrpMessage(confirmation.message)!), 'completed');
  assert.equal(actionForTrpMessage(rejected.message), 'reject');
  assert.equal(actionForTrpMessage(ack.message), undefined);
});
