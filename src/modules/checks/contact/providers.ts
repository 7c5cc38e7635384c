import {
  SandboxMessagingProvider,
  SmtpEmailProvider,
  TwilioSmsProvider,
  type MessagingProvider,
} from '../../../providers/messaging/index.js';
import type { Environment } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { defineResource } from '../../../platform/resources.js';
import { SMS_VARS, SMTP_VARS, type ContactSettings } from './settings.js';

export interface ContactProviders {
  email: MessagingProvider | null;
  sms: MessagingProvider | null;
}

/**
 * The process's senders, one provider per configured channel (`resources.get(SENDERS)`): contact
 * verification's codes and the Travel Rule email fallback share the SMTP connection.
 */
export const SENDERS = defineResource<ContactProviders>(
  'senders',
  (r) => buildProviders(r.config.checks.contact),
  async (providers) => {
    await providers.email?.close?.();
    await providers.sms?.close?.();
  },
);

function buildProviders(s: ContactSettings): ContactProviders {
  return {
    email: s.smtp ? new SmtpEmailProvider({ url: s.smtp.url, from: s.smtp.from }) : null,
    sms: s.sms
      ? new TwilioSmsProvider({ accountSid: s.sms.accountSid, authToken: s.sms.authToken, from: s.sms.from, baseUrl: s.sms.baseUrl })
      : null,
  };
}

const SANDBOX_CHANNELS = { email: new SandboxMessagingProvider('email'), sms: new SandboxMessagingProvider('sms') };

/**
 * The channel's provider. A channel without one is a deployment gap, not the caller's error: 422 naming
 * what to set, in production; a sandbox key then gets the sandbox channel (nothing is sent, the code is
 * always SANDBOX_CONTACT_CODE), so every check can be exercised before a mail server or SMS account exists.
 */
export function providerFor(p: ContactProviders, channel: 'email' | 'sms', environment: Environment): MessagingProvider {
  const provider = p[channel] ?? (environment === 'sandbox' ? SANDBOX_CHANNELS[channel] : null);
  if (!provider) {
    throw new AppError(
      'check_unavailable',
      `The ${channel} channel is not configured on this server: set ${channel === 'email' ? SMTP_VARS : SMS_VARS}.`,
      { field: 'channel' },
    );
  }
  return provider;
}
