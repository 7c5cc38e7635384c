import type { BirthDate, Identifier, ListName } from '../../engines/screening/types.js';
import { countryCode } from '../../engines/screening/countries.js';
import { parseListDate } from './list-source.js';

// OFAC's legacy CSV keeps most structured facts in the free-text Remarks column as
// "Label value (Country)" items separated by semicolons. This file turns them into fields.

export interface OfacRemarks {
  birthDates: BirthDate[];
  nationalities: string[];
  gender?: 'male' | 'female';
  identifiers: Identifier[];
  /** Quoted a.k.a. items are OFAC's weak aliases. */
  weakAliases: ListName[];
  placesOfBirth: string[];
}

// Longest labels first so "Vessel Registration Identification IMO" wins over "IMO".
const ID_LABELS: Array<[string, string]> = (
  [
    ['Vessel Registration Identification IMO', 'imo'],
    ['Identification Number IMO', 'imo'],
    ['Passport', 'passport'],
    ['National ID No.', 'national_id'],
    ['Cedula No.', 'national_id'],
    ['Identification Number', 'national_id'],
    ["Citizen's Card Number", 'national_id'],
    ['C.U.R.P.', 'national_id'],
    ['Personal ID Card', 'national_id'],
    ['Tax ID No.', 'tax_id'],
    ['R.F.C.', 'tax_id'],
    ['NIT #', 'tax_id'],
    ['RUC #', 'tax_id'],
    ['Registration Number', 'registration'],
    ['Registration ID', 'registration'],
    ['Business Registration Number', 'registration'],
    ['Company Number', 'registration'],
    ['Commercial Registry Number', 'registration'],
    ['Business Number', 'registration'],
    ['SWIFT/BIC', 'swift'],
    ['IMO', 'imo'],
    ['MMSI', 'mmsi'],
    ['Email Address', 'email'],
    ['Legal Entity Number', 'lei'],
    ['D-U-N-S Number', 'duns'],
    ["Driver's License No.", 'drivers_license'],
    ['Birth Certificate Number', 'birth_certificate'],
    ["Aircraft Manufacturer's Serial Number (MSN)", 'aircraft_msn'],
    ['Aircraft Tail Number', 'aircraft_tail'],
    ['Social Security Number', 'ssn'],
    ['Stock Ticker', 'ticker'],
  ] as Array<[string, string]>
).sort((a, b) => b[0].length - a[0].length);

/** Splits remarks on semicolons outside quotes (aliases may contain semicolons rarely, quotes never nest). */
function items(remarks: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inQuote = false;
  for (let i = 0; i < remarks.length; i++) {
    const ch = remarks[i]!;
    // An apostrophe inside a word ("GAMA'AT") is not a quote.
    if (ch === "'" && (inQuote ? !/[A-Za-z]/.test(remarks[i + 1] ?? '') : !/[A-Za-z]/.test(remarks[i - 1] ?? ''))) inQuote = !inQuote;
    if (ch === ';' && !inQuote) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim().replace(/\.$/, ''));
  return out.filter(Boolean);
}

function valueAndCountry(rest: string): { value: string; country?: string } | undefined {
  const m = /^[:#]?\s*([^\s(;]+(?: [0-9A-Z][0-9A-Z-]*)*?)(?:\s+\(([^)]+)\))?(?:\s|,|$)/.exec(rest.trim());
  if (!m) return undefined;
  return { value: m[1]!.replace(/[.,]$/, ''), country: m[2] ? countryCode(m[2]) : undefined };
}

export function parseOfacRemarks(remarks: string | undefined): OfacRemarks {
  const r: OfacRemarks = { birthDates: [], nationalities: [], identifiers: [], weakAliases: [], placesOfBirth: [] };
  if (!remarks) return r;
  for (const raw of items(remarks)) {
    const it = raw.replace(/^alt\.\s+/i, '');
    let m: RegExpExecArray | null;
    if ((m = /^DOB (.+)$/.exec(it))) {
      const d = parseListDate(m[1]!);
      if (d) r.birthDates.push(d);
    } else if ((m = /^POB (.+)$/.exec(it))) {
      r.placesOfBirth.push(m[1]!);
    } else if ((m = /^(?:nationality|citizen) (.+)$/i.exec(it))) {
      const c = countryCode(m[1]!);
      if (c) r.nationalities.push(c);
    } else if ((m = /^Gender (Male|Female)$/i.exec(it))) {
      r.gender = m[1]!.toLowerCase() as 'male' | 'female';
    } else if ((m = /^(?:a\.k\.a\.|f\.k\.a\.|n\.k\.a\.)\s+'(.+)'$/.exec(it))) {
      r.weakAliases.push({ full: m[1]!, quality: 'weak' });
    } else if ((m = /^Digital Currency Address - ([A-Z0-9]+)\s+(\S+)/.exec(it))) {
      r.identifiers.push({ type: `crypto:${m[1]}`, value: m[2]! });
    } else {
      const label = ID_LABELS.find(([l]) => it.startsWith(`${l} `));
      if (!label) continue;
      const vc = valueAndCountry(it.slice(label[0].length));
      if (vc && /[0-9@]/.test(vc.value))
        r.identifiers.push({ type: label[1], value: vc.value, ...(vc.country ? { country: vc.country } : {}) });
    }
  }
  return r;
}
