import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startAndSend } from './contact-flow.js';
import { confirmVerification } from './otp.js';
import { MessagingError, type MessagingProvider, type OutboundMessage } from '../../providers/messaging/messaging-provider.js';

/** Records messages in memory; the wire-level behaviour is covered by the provider tests. */
function memoryProvider(channel: 'email' | 'sms', fail?: MessagingError): MessagingProvider & { sent: OutboundMessage[] } {
  const sent: OutboundMessage[] = [];
  return {
    channel,
    name: 'memory',
    sent,
    async send(m) {
      if (fail) throw fail;
      sent.push(m);
      return { provider: 'memory', providerMessageId: `m${sent.length}` };
    },
  };
}

describe('startAndSend', () => {
  const now = new Date('2026-05-01T08:00:00Z');
  test('normalises, sends the code to the E.164 number, and the sent code confirms', async () => {
    const p = memoryProvider('sms');
    const r = await startAndSend(null, { channel: 'sms', destination: '07400 123456', phone: { defaultCountry: 'GB' }, now, secret: 's' }, p);
    assert.equal(r.status, 'sent');
    assert.equal(p.sent[0]?.to, '+447400123456');
    const code = /(\d{6})/.exec(p.sent[0]?.text ?? '')?.[1] ?? '';
    assert.ok(r.status === 'sent' && confirmVerification(r.state, code, now, 's').outcome === 'verified');
  });
  test('invalid destinations and limits stop before anything is sent', async () => {
    const p = memoryProvider('email');
    assert.equal((await startAndSend(null, { channel: 'email', destination: 'not-an-email', now, secret: 's' }, p)).status, 'invalid_destination');
    const history = () => [new Date(now.getTime() - 60_000), new Date(now.getTime() - 50_000), new Date(now.getTime() - 40_000)];
    const limited = await startAndSend(null, { channel: 'email', destination: 'a@example.com', now, secret: 's', destinationHistory: history }, p);
    assert.equal(limited.status, 'refused');
    assert.equal(p.sent.length, 0);
  });
  test('a provider failure is reported with its transient/permanent kind and no state', async () => {
    const p = memoryProvider('sms', new MessagingError('memory', 'permanent', 'twilio_21211', 'invalid To'));
    const r = await startAndSend(null, { channel: 'sms', destination: '+14155552671', now, secret: 's' }, p);
    assert.equal(r.status, 'delivery_failed');
    assert.equal(r.status === 'delivery_failed' && r.error.kind, 'permanent');
    assert.equal('state' in r, false);
  });
});
