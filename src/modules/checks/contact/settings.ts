import { ConfigError } from '../../../config.js';

/** What the contact check reads from the environment; validated when the module registers. */
export interface ContactSettings {
  smtp: { url: string; from: string } | null;
  sms: { provider: 'twilio'; accountSid: string; authToken: string; from: string; baseUrl: string } | null;
  ttlSeconds: number;
  maxAttempts: number;
  resendCooldownSeconds: number;
  defaultCountry: string | undefined;
  /** MX lookup of email domains through the system resolver; off by default (no network here). */
  mxLookup: boolean;
}

export const SMTP_VARS = 'SMTP_URL and SMTP_FROM';
export const SMS_VARS = 'SMS_PROVIDER=twilio, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM';

/** Collects every problem before failing, like loadConfig, so an operator fixes them in one pass. */
export function loadContactSettings(env: NodeJS.ProcessEnv = process.env): ContactSettings {
  const problems: string[] = [];
  const text = (name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return def;
    }
    return n;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (protocols.includes(u.protocol)) return raw;
    } catch {
      /* reported below */
    }
    problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    return undefined;
  };

  let smtp: ContactSettings['smtp'] = null;
  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  const smtpFrom = text('SMTP_FROM');
  if (smtpUrl && !smtpFrom) problems.push('SMTP_FROM is required when SMTP_URL is set (the sender address of code mails)');
  if (smtpFrom && !text('SMTP_URL')) problems.push('SMTP_URL is required when SMTP_FROM is set');
  if (smtpUrl && smtpFrom) smtp = { url: smtpUrl, from: smtpFrom };

  let sms: ContactSettings['sms'] = null;
  const provider = text('SMS_PROVIDER');
  if (provider !== undefined && provider !== 'twilio') problems.push(`SMS_PROVIDER must be "twilio" or unset (got "${provider}")`);
  if (provider === 'twilio') {
    const missing = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'].filter((n) => !text(n));
    if (missing.length) problems.push(`SMS_PROVIDER=twilio needs ${missing.join(', ')}`);
    const baseUrl = url('TWILIO_BASE_URL', ['https:', 'http:']) ?? 'https://api.twilio.com';
    if (missing.length === 0)
      sms = {
        provider: 'twilio',
        accountSid: text('TWILIO_ACCOUNT_SID')!,
        authToken: text('TWILIO_AUTH_TOKEN')!,
        from: text('TWILIO_FROM')!,
        baseUrl,
      };
  }

  const defaultCountry = text('CONTACT_DEFAULT_COUNTRY');
  if (defaultCountry !== undefined && !/^[A-Z]{2}$/.test(defaultCountry))
    problems.push(`CONTACT_DEFAULT_COUNTRY must be two upper-case letters (got "${defaultCountry}")`);
  const mx = text('CONTACT_EMAIL_MX_LOOKUP') ?? 'false';
  if (mx !== 'true' && mx !== 'false') problems.push(`CONTACT_EMAIL_MX_LOOKUP must be true or false (got "${mx}")`);

  const settings: ContactSettings = {
    smtp,
    sms,
    ttlSeconds: int('CONTACT_CODE_TTL_SECONDS', 600, 1, 86_400),
    maxAttempts: int('CONTACT_MAX_ATTEMPTS', 5, 1, 20),
    resendCooldownSeconds: int('CONTACT_RESEND_COOLDOWN_SECONDS', 30, 0, 3600),
    defaultCountry,
    mxLookup: mx === 'true',
  };
  if (problems.length) throw new ConfigError(problems);
  return settings;
}
