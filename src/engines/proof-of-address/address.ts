import { countryCode } from '../screening/countries.js';
import { findPostcodes, postcodeRule } from './postcodes.js';

export interface ParsedAddress {
  /** Street and locality lines without the country line. */
  lines: string[];
  postcode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2, or null when it cannot be told. */
  country: string | null;
  countrySource: 'country_line' | 'postcode_format' | 'street_words' | 'hint' | null;
  /** The postcode fits the country's format and there is at least one street line. */
  valid: boolean;
}

const FR_WORDS = /\b(rue|avenue|boulevard|bd|place|allée|chemin|impasse|quai|cedex)\b/i;
const DE_WORDS = /(straße|strasse|str\.|weg|allee|platz|gasse|ring|damm)\b/i;
const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(
    ' ',
  ),
);

/**
 * Parses address lines as printed (or one comma-separated line) into postcode, city and country.
 * Country comes from an explicit country line first, then from the postcode format, then from street
 * vocabulary (FR and DE postcodes look alike), then from the caller's hint.
 */
export function parseAddress(input: string[] | string, countryHint?: string): ParsedAddress {
  let lines = (
    typeof input === 'string'
      ? input.split(/\s*[,\n]\s*/)
      : input.flatMap((l) => (l.includes(',') && !/,\s*[A-Z]{2}\s+\d{5}/.test(l) ? l.split(/\s*,\s*/) : [l]))
  )
    .map((l) => l.trim())
    .filter(Boolean);
  let country: string | null = null;
  let countrySource: ParsedAddress['countrySource'] = null;
  const last = lines[lines.length - 1];
  const named = last && !/\d/.test(last) ? countryCode(last) : undefined;
  if (named && lines.length > 1) {
    country = named;
    countrySource = 'country_line';
    lines = lines.slice(0, -1);
  }
  // US addresses keep "City, ST 12345" on one line; rejoin it if the comma split it.
  lines = lines.reduce<string[]>((acc, l) => {
    const prev = acc[acc.length - 1];
    if (prev && /^[A-Z]{2}\s+\d{5}(-\d{4})?$/.test(l) && US_STATES.has(l.slice(0, 2))) acc[acc.length - 1] = `${prev}, ${l}`;
    else acc.push(l);
    return acc;
  }, []);

  let postcode: string | null = null;
  let candidates: string[] = [];
  let postcodeLine = -1;
  for (let i = lines.length - 1; i >= 0 && postcode === null; i--) {
    const hits = findPostcodes(lines[i] ?? '');
    const preferred = hits.find((h) => country !== null && h.countries.includes(country)) ?? hits[0];
    if (preferred) {
      postcode = preferred.postcode;
      candidates = preferred.countries;
      postcodeLine = i;
    }
  }
  if (country === null && candidates.length > 0) {
    const street = lines.slice(0, Math.max(postcodeLine, 1)).join(' ');
    const usState = /,?\s*([A-Z]{2})\s+\d{5}/.exec(lines[postcodeLine] ?? '')?.[1];
    let pick = candidates.filter((c) => c !== 'US' || (usState !== undefined && US_STATES.has(usState)));
    if (pick.includes('FR') && pick.includes('DE')) {
      pick = FR_WORDS.test(street)
        ? ['FR']
        : DE_WORDS.test(street)
          ? ['DE']
          : countryHint && pick.includes(countryHint)
            ? [countryHint]
            : pick;
      if (pick.length === 1)
        countrySource =
          countryHint && pick[0] === countryHint && !FR_WORDS.test(street) && !DE_WORDS.test(street) ? 'hint' : 'street_words';
    } else if (pick.length === 1) {
      countrySource = 'postcode_format';
    }
    if (pick.length === 1) country = pick[0] ?? null;
    else countrySource = null;
  }
  const city = cityOf(lines, postcodeLine, postcode, country);
  const rule = country ? postcodeRule(country) : undefined;
  const postcodeFits = postcode !== null && (rule ? rule.postcode.test(postcode) : true);
  const hasStreet = lines.some((l, i) => i !== postcodeLine && /\d|\p{L}{3,}/u.test(l));
  return { lines, postcode, city, country, countrySource, valid: postcodeFits && hasStreet && country !== null };
}

function cityOf(lines: string[], postcodeLine: number, postcode: string | null, country: string | null): string | null {
  if (postcodeLine < 0 || postcode === null) return null;
  const line = lines[postcodeLine] ?? '';
  let rest = line.replace(new RegExp(postcode.replace(/\s/g, '\\s?'), 'i'), '').trim();
  if (country === 'US') rest = rest.replace(/,?\s*\b[A-Z]{2}$/, '');
  rest = rest.replace(/^[,\s]+|[,\s]+$/g, '');
  if (rest) return titleCase(rest);
  const above = lines[postcodeLine - 1];
  return above && !/\d/.test(above) ? titleCase(above) : null;
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}
