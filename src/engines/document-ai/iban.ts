/** IBAN lengths per country (ISO 13616 registry, common SEPA and non-SEPA countries). */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TN: 24,
  TR: 26,
  UA: 29,
  VG: 24,
  XK: 20,
};

export interface IbanCheck {
  normalized: string;
  country: string;
  /** Length fits the country and the mod-97 check digits verify. */
  valid: boolean;
  reason: 'ok' | 'unknown_country' | 'wrong_length' | 'bad_check_digits' | 'bad_characters';
}

/** ISO 7064 mod 97-10 over the rearranged IBAN, computed piecewise so no big integers are needed. */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

export function checkIban(raw: string): IbanCheck {
  const normalized = raw.replace(/[\s-]/g, '').toUpperCase();
  const country = normalized.slice(0, 2);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(normalized)) return { normalized, country, valid: false, reason: 'bad_characters' };
  const expected = IBAN_LENGTHS[country];
  if (expected === undefined) return { normalized, country, valid: false, reason: 'unknown_country' };
  if (normalized.length !== expected) return { normalized, country, valid: false, reason: 'wrong_length' };
  if (ibanMod97(normalized) !== 1) return { normalized, country, valid: false, reason: 'bad_check_digits' };
  return { normalized, country, valid: true, reason: 'ok' };
}

/** Builds a valid IBAN from country and BBAN by computing its check digits (used by fixtures and tests). */
export function makeIban(country: string, bban: string): string {
  const rem = ibanMod97(`${country}00${bban}`);
  return `${country}${String(98 - rem).padStart(2, '0')}${bban}`;
}
