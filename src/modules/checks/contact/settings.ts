import { section, vars, Var, type SectionValue } from '../../../platform/config-schema.js';

export const SMTP_VARS = 'SMTP_URL and SMTP_FROM';
export const SMS_VARS = 'SMS_PROVIDER=twilio, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM';

/** What the contact check reads from the environment; validated at start with the whole configuration. */
export const contactConfig = section(
  vars({
    smtpUrl: Var.url('SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: Var.text('SMTP_FROM'),
    smsProvider: Var.oneOf('SMS_PROVIDER', ['twilio']),
    twilioAccountSid: Var.text('TWILIO_ACCOUNT_SID'),
    twilioAuthToken: Var.text('TWILIO_AUTH_TOKEN', { secret: true }),
    twilioFrom: Var.text('TWILIO_FROM'),
    twilioBaseUrl: Var.url('TWILIO_BASE_URL', ['https:', 'http:']),
    ttlSeconds: Var.int('CONTACT_CODE_TTL_SECONDS', 600, 1, 86_400),
    maxAttempts: Var.int('CONTACT_MAX_ATTEMPTS', 5, 1, 20),
    resendCooldownSeconds: Var.int('CONTACT_RESEND_COOLDOWN_SECONDS', 30, 0, 3600),
    defaultCountry: Var.text('CONTACT_DEFAULT_COUNTRY', { pattern: '^[A-Z]{2}$', hint: 'must be two upper-case letters' }),
    /** MX lookup of email domains through the system resolver; off by default (no network here). */
    mxLookup: Var.bool('CONTACT_EMAIL_MX_LOOKUP', false),
  }),
  (v, problems, env) => {
    // Judged on what was set, so a malformed SMTP_URL does not also report "SMTP_URL is required".
    const set = (name: string) => env[name] !== undefined && env[name] !== '';
    if (set('SMTP_URL') && !v.smtpFrom) problems.push('SMTP_FROM is required when SMTP_URL is set (the sender address of code mails)');
    if (v.smtpFrom && !set('SMTP_URL')) problems.push('SMTP_URL is required when SMTP_FROM is set');
    let sms: { provider: 'twilio'; accountSid: string; authToken: string; from: string; baseUrl: string } | null = null;
    if (v.smsProvider === 'twilio') {
      const missing = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'].filter((n) => !set(n));
      if (missing.length) problems.push(`SMS_PROVIDER=twilio needs ${missing.join(', ')}`);
      else
        sms = {
          provider: 'twilio',
          accountSid: v.twilioAccountSid!,
          authToken: v.twilioAuthToken!,
          from: v.twilioFrom!,
          baseUrl: v.twilioBaseUrl ?? 'https://api.twilio.com',
        };
    }
    return {
      smtp: v.smtpUrl && v.smtpFrom ? { url: v.smtpUrl, from: v.smtpFrom } : null,
      sms,
      ttlSeconds: v.ttlSeconds,
      maxAttempts: v.maxAttempts,
      resendCooldownSeconds: v.resendCooldownSeconds,
      defaultCountry: v.defaultCountry,
      mxLookup: v.mxLookup,
    };
  },
);

export type ContactSettings = SectionValue<typeof contactConfig>;
