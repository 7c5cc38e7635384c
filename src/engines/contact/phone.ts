import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { signal, type Signal } from '../signal.js';

export interface PhoneCheck {
  valid: boolean;
  e164: string | null;
  country: string | null;
  type: string | null;
  /** Why the number must not receive a code, when it must not. */
  reason: 'unparseable' | 'invalid_number' | 'not_sms_capable' | 'country_not_allowed' | null;
  signals: Signal[];
}

// Premium-rate and shared-cost numbers are the payout end of SMS pumping fraud; fixed lines cannot get SMS.
const REFUSED_TYPES = new Set(['PREMIUM_RATE', 'SHARED_COST', 'FIXED_LINE', 'TOLL_FREE', 'VOICEMAIL', 'UAN', 'PAGER']);

export interface PhoneOptions {
  defaultCountry?: string;
  /** ISO 3166 alpha-2 countries SMS may go to; empty or absent means all. */
  allowedCountries?: readonly string[];
}

/** Normalises to E.164 and refuses numbers that are invalid or cannot, or should not, receive SMS. */
export function checkPhone(raw: string, options: PhoneOptions = {}): PhoneCheck {
  const parsed = parsePhoneNumberFromString(raw.trim(), options.defaultCountry as CountryCode | undefined);
  if (!parsed) {
    return { valid: false, e164: null, country: null, type: null, reason: 'unparseable', signals: [signal('phone_parse', false, false)] };
  }
  const e164 = parsed.number;
  const country = parsed.country ?? null;
  const type = parsed.getType() ?? null;
  const signals: Signal[] = [signal('phone_e164', e164, null)];
  const valid = parsed.isValid();
  signals.push(signal('phone_valid', valid, valid));
  if (!valid) return { valid: false, e164, country, type, reason: 'invalid_number', signals };
  const refusedType = type !== null && REFUSED_TYPES.has(type);
  signals.push(
    signal('phone_type', type, !refusedType, { detail: 'Premium, shared-cost and landline numbers are refused for SMS codes.' }),
  );
  if (refusedType) return { valid: false, e164, country, type, reason: 'not_sms_capable', signals };
  const allowed = !options.allowedCountries?.length || (country !== null && options.allowedCountries.includes(country));
  signals.push(signal('phone_country_allowed', country, allowed));
  if (!allowed) return { valid: false, e164, country, type, reason: 'country_not_allowed', signals };
  return { valid: true, e164, country, type, reason: null, signals };
}
