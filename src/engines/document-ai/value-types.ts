import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { checkEmailSyntax } from '../contact/email.js';
import { findDates } from '../proof-of-address/dates.js';
import { checkIban } from './iban.js';

export type FieldType = 'string' | 'date' | 'amount' | 'iban' | 'email' | 'phone';

export interface TypedValue {
  /** The substring as printed. */
  raw: string;
  /** Index of `raw` in the searched text. */
  index: number;
  normalized: string | number | null;
  /** Whether the value passes the type's own validation (check digits, calendar, syntax). */
  valid: boolean;
}

const AMOUNT =
  /(?:[£$€¥]|\b(?:EUR|GBP|USD|CHF)\b)?\s?-?\d{1,3}(?:[,.\s]\d{3})*(?:[.,]\d{2})?(?:\s?(?:[£$€]|\b(?:EUR|GBP|USD|CHF)\b))?|-?\d+(?:[.,]\d{2})/g;
const IBAN = /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b/g;
const EMAIL = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE = /(?:\+|\b00)?\d[\d\s().-]{6,18}\d/g;

/** "1.234,56" and "1,234.56" both mean 1234.56: the last separator followed by two digits is the decimal one. */
export function parseAmount(raw: string): number | null {
  const digits = raw.replace(/[^\d.,-]/g, '');
  if (!/\d/.test(digits)) return null;
  const m = /^(-?[\d.,]*?)[.,](\d{2})$/.exec(digits);
  const whole = (m ? (m[1] ?? '') : digits).replace(/[.,]/g, '');
  const value = Number(m ? `${whole}.${m[2]}` : whole);
  return Number.isFinite(value) ? value : null;
}

function matches(re: RegExp, text: string): Array<{ raw: string; index: number }> {
  re.lastIndex = 0;
  const out: Array<{ raw: string; index: number }> = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) if (m[0].trim()) out.push({ raw: m[0].trim(), index: m.index + (m[0].length - m[0].trimStart().length) });
  return out;
}

/** Values of the type found in a text, in order; the first valid one is usually the field. */
export function findTypedValues(
  type: FieldType,
  text: string,
  options: { monthFirst?: boolean; defaultCountry?: string } = {},
): TypedValue[] {
  switch (type) {
    case 'string': {
      const raw = text.trim();
      return raw ? [{ raw, index: text.indexOf(raw), normalized: raw.replace(/\s+/g, ' '), valid: true }] : [];
    }
    case 'date':
      return findDates(text, options.monthFirst).map((d) => ({ raw: d.text, index: d.index, normalized: d.iso, valid: true }));
    case 'amount': {
      const all = matches(AMOUNT, text).filter((m) => /\d/.test(m.raw));
      // A bare integer is an amount only when nothing on the line looks more like money.
      const money = all.filter((m) => /[£$€¥]|EUR|GBP|USD|CHF|[.,]\d{2}$/.test(m.raw));
      return (money.length ? money : all).map((m) => {
        const value = parseAmount(m.raw);
        return { ...m, normalized: value, valid: value !== null };
      });
    }
    case 'iban':
      return matches(IBAN, text).map((m) => {
        const c = checkIban(m.raw);
        return { ...m, normalized: c.normalized, valid: c.valid };
      });
    case 'email':
      return matches(EMAIL, text).map((m) => ({ ...m, normalized: m.raw.toLowerCase(), valid: checkEmailSyntax(m.raw).ok }));
    case 'phone':
      return matches(PHONE, text).map((m) => {
        const p = parsePhoneNumberFromString(m.raw, options.defaultCountry as CountryCode | undefined);
        return { ...m, normalized: p?.number ?? null, valid: p?.isValid() ?? false };
      });
  }
}
