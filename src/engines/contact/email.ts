import { isDisposableDomain } from './disposable-domains.js';
import { signal, type Signal } from '../signal.js';

export interface EmailCheck {
  valid: boolean;
  /** Lower-cased domain, local part kept as typed (it may be case-sensitive by RFC 5321). */
  normalized: string | null;
  domain: string | null;
  disposable: boolean;
  /** null when MX lookup was not performed. */
  hasMx: boolean | null;
  reason: 'syntax' | 'no_mx' | null;
  signals: Signal[];
}

/** Injectable so tests and offline deployments need no DNS; `dns.promises.resolveMx` fits. */
export type MxResolver = (domain: string) => Promise<Array<{ exchange: string; priority: number }>>;

// Dot-atom local part (RFC 5322 without quoted strings, which real sign-up flows never see).
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function checkEmailSyntax(raw: string): { ok: boolean; local: string; domain: string } {
  const trimmed = raw.trim();
  const at = trimmed.lastIndexOf('@');
  const local = at > 0 ? trimmed.slice(0, at) : '';
  const domain =
    at > 0
      ? trimmed
          .slice(at + 1)
          .toLowerCase()
          .replace(/\.$/, '')
      : '';
  const labels = domain.split('.');
  const ok =
    trimmed.length <= 254 &&
    local.length > 0 &&
    local.length <= 64 &&
    LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    /^[a-z]{2,}$|^xn--[a-z0-9-]+$/.test(labels[labels.length - 1] ?? '');
  return { ok, local, domain };
}

export interface EmailOptions {
  /** MX lookup is off unless a resolver is given (no network here). */
  resolveMx?: MxResolver;
  extraDisposableDomains?: ReadonlySet<string>;
}

export async function checkEmail(raw: string, options: EmailOptions = {}): Promise<EmailCheck> {
  const { ok, local, domain } = checkEmailSyntax(raw);
  const signals: Signal[] = [signal('email_syntax', ok, ok)];
  if (!ok) return { valid: false, normalized: null, domain: null, disposable: false, hasMx: null, reason: 'syntax', signals };
  const disposable = isDisposableDomain(domain, options.extraDisposableDomains);
  signals.push(signal('email_disposable', disposable, !disposable, { detail: 'Disposable mailbox providers are flagged, not refused.' }));
  let hasMx: boolean | null = null;
  if (options.resolveMx) {
    try {
      const records = await options.resolveMx(domain);
      hasMx = records.some((r) => r.exchange.length > 0);
    } catch (err) {
      // ENOTFOUND / ENODATA mean the domain cannot receive mail; other errors leave it unknown.
      const code = (err as { code?: string }).code;
      hasMx = code === 'ENOTFOUND' || code === 'ENODATA' ? false : null;
    }
    signals.push(signal('email_mx', hasMx, hasMx));
  }
  const normalized = `${local}@${domain}`;
  if (hasMx === false) return { valid: false, normalized, domain, disposable, hasMx, reason: 'no_mx', signals };
  return { valid: true, normalized, domain, disposable, hasMx, reason: null, signals };
}
