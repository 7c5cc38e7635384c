import { randomUUID } from 'node:crypto';
import type { MessagingProvider, OutboundMessage, SendReceipt } from './messaging-provider.js';

/**
 * The sandbox's channel when no real one is configured: nothing leaves the server. The contact check
 * uses the fixed code SANDBOX_CONTACT_CODE with it, so an integrator can exercise start, confirm,
 * resend, wrong codes and lockout without a mail server or an SMS account.
 */
export class SandboxMessagingProvider implements MessagingProvider {
  readonly name = 'sandbox';
  constructor(readonly channel: 'email' | 'sms') {}

  async send(_message: OutboundMessage): Promise<SendReceipt> {
    return { provider: this.name, providerMessageId: `sandbox_${randomUUID()}` };
  }
}

/** The one code the sandbox channel's verifications accept. */
export const SANDBOX_CONTACT_CODE = '000000';
