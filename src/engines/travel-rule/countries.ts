import { ISO_ALPHA2, isCountryAlpha2 } from '../../platform/countries.js';

/** The ISO 3166-1 alpha-2 codes: the platform's one list (request validation and screening use it too). */
export const ISO_3166_ALPHA2: ReadonlySet<string> = ISO_ALPHA2;

/** IVMS101 C3: an ISO 3166-1 alpha-2 code, or "XX" for an unknown country. */
export function isIvmsCountryCode(code: string): boolean {
  return code === 'XX' || isCountryAlpha2(code);
}

let byName: Map<string, string> | undefined;

/**
 * The alpha-2 code for an English country name ("United Kingdom" → "GB"), for normalising
 * counterparties that send names where codes belong. Names come from the runtime's ICU data,
 * so no name table has to be maintained here; undefined when the name is not recognised.
 */
export function countryCodeForName(name: string): string | undefined {
  if (byName === undefined) {
    byName = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of ISO_3166_ALPHA2) {
      const n = names.of(code);
      if (n !== undefined && n !== code) byName.set(n.toLowerCase(), code);
    }
  }
  return byName.get(name.trim().toLowerCase());
}
