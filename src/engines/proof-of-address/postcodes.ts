/**
 * Postcode formats per country. `line` matches a postcode line in its usual position so a bare
 * five-digit number elsewhere (an amount, an account) is not taken for a postcode.
 */
export interface PostcodeRule {
  country: string;
  /** Full-string postcode pattern, for validating an extracted postcode. */
  postcode: RegExp;
  /** Finds the postcode in an address line; group 1 is the postcode. */
  line: RegExp;
}

export const POSTCODE_RULES: readonly PostcodeRule[] = [
  {
    country: 'GB',
    postcode: /^(GIR 0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/i,
    line: /(?:^|[\s,])((?:[A-Z]{1,2}\d[A-Z\d]?) ?\d[A-Z]{2})\s*$/i,
  },
  {
    country: 'IE',
    postcode: /^(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[\dAC-FHKNPRTV-Y]{4}$/i,
    line: /(?:^|[\s,])([AC-FHKNPRTV-Y]\d{2}|D6W) ?([\dAC-FHKNPRTV-Y]{4})\s*$/i,
  },
  { country: 'NL', postcode: /^\d{4} ?[A-Z]{2}$/i, line: /^(?:.*,\s*)?(\d{4} ?[A-Z]{2})\s+\p{L}/iu },
  { country: 'CA', postcode: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, line: /(?:^|[\s,])([A-Z]\d[A-Z] ?\d[A-Z]\d)\s*$/i },
  { country: 'US', postcode: /^\d{5}(-\d{4})?$/, line: /,?\s*[A-Z]{2}\s+(\d{5}(?:-\d{4})?)\s*$/ },
  // FR and DE share "12345 City"; the street words decide between them (see detectCountry).
  { country: 'FR', postcode: /^\d{5}$/, line: /^(?:.*,\s*)?(\d{5})\s+\p{Lu}/u },
  { country: 'DE', postcode: /^\d{5}$/, line: /^(?:.*,\s*)?(\d{5})\s+\p{Lu}/u },
];

export function postcodeRule(country: string): PostcodeRule | undefined {
  return POSTCODE_RULES.find((r) => r.country === country);
}

/** Postcode candidates in a line, with the countries whose format they fit. */
export function findPostcodes(line: string): Array<{ postcode: string; countries: string[] }> {
  const found = new Map<string, string[]>();
  for (const rule of POSTCODE_RULES) {
    const m = rule.line.exec(line.trim());
    if (!m) continue;
    const postcode = (m[2] ? `${m[1]} ${m[2]}` : (m[1] ?? '')).toUpperCase().replace(/\s+/g, ' ');
    found.set(postcode, [...(found.get(postcode) ?? []), rule.country]);
  }
  return [...found.entries()].map(([postcode, countries]) => ({ postcode, countries }));
}
