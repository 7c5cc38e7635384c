import { parse as parseNational, states } from 'mrz';
import { isCheckDigitValid } from './mrz-check.js';

/**
 * ICAO 9303 MRZ parser for TD1, TD2, TD3, MRV-A and MRV-B. Written here rather than taken from the `mrz`
 * package because that package has no visa formats and rejects the ICAO specimen state "UTO", which every
 * specimen document uses. National non-ICAO formats (French ID, French and Swiss driving licences) are
 * delegated to the `mrz` package.
 */

export type IcaoFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';
export type MrzFormat = IcaoFormat | 'FRENCH_NATIONAL_ID' | 'FRENCH_DRIVING_LICENSE' | 'SWISS_DRIVING_LICENSE';
export type CheckedField = 'documentNumber' | 'birthDate' | 'expiryDate' | 'personalNumber' | 'composite';
export type DocumentType = 'passport' | 'id_card' | 'visa' | 'driving_licence' | 'other';

export interface MrzCheck {
  field: CheckedField;
  /** The characters the check digit covers. */
  data: string;
  digit: string;
  valid: boolean;
}

export interface MrzFields {
  documentType: DocumentType;
  documentCode: string;
  issuingState: string;
  documentNumber: string;
  surname: string;
  givenNames: string;
  nationality: string;
  /** ISO date (YYYY-MM-DD), null when the MRZ date is not a real date. */
  birthDate: string | null;
  sex: 'M' | 'F' | 'X' | null;
  expiryDate: string | null;
  personalNumber?: string;
  optionalData: string[];
}

export interface ParsedMrz {
  format: MrzFormat;
  lines: string[];
  fields: MrzFields;
  checks: MrzCheck[];
  /** Every check digit present in the format is right. */
  checkDigitsValid: boolean;
  /** Stable snake_case codes for structural problems (invalid date, unknown state code, bad sex field...). */
  problems: string[];
  /** Check digits valid and no structural problem. An unknown state code alone does not make it invalid. */
  valid: boolean;
}

export class MrzFormatError extends Error {
  override readonly name = 'MrzFormatError';
}

/** ICAO specimen states and codes the state table lacks ("D" is Germany's one-letter code). */
const EXTRA_STATES = new Set(['UTO', 'D', 'XOM', 'XPO', 'XDC', 'XBA', 'XIM', 'XCC', 'XEC']);

export function isKnownStateCode(code: string): boolean {
  return code in states || EXTRA_STATES.has(code);
}

export function detectFormat(lines: string[]): MrzFormat | null {
  const lens = lines.map((l) => l.length).join(',');
  const first = lines[0] ?? '';
  if (lens === '30,30,30') return 'TD1';
  if (lens === '44,44') return first.startsWith('V') ? 'MRVA' : 'TD3';
  if (lens === '36,36') {
    if (first.startsWith('V')) return 'MRVB';
    return first.startsWith('IDFRA') ? 'FRENCH_NATIONAL_ID' : 'TD2';
  }
  if (lens === '30') return 'FRENCH_DRIVING_LICENSE';
  if (lens === '9,30,30') return 'SWISS_DRIVING_LICENSE';
  return null;
}

export function splitLines(input: string[] | string): string[] {
  const raw = Array.isArray(input) ? input : input.split(/\r?\n/);
  return raw.map((l) => l.trim().replace(/\s+/g, '')).filter((l) => l.length > 0);
}

/** The names line of a format and the column its names start at. */
export function namesSpan(format: string): { line: number; start: number } {
  return format === 'TD1' ? { line: 2, start: 0 } : { line: 0, start: 5 };
}

export function parseMrz(input: string[] | string, options: { now?: Date } = {}): ParsedMrz {
  const lines = splitLines(input);
  const format = detectFormat(lines);
  if (format === null) throw new MrzFormatError(`unsupported MRZ shape: ${lines.length} lines of ${lines.map((l) => l.length).join('/')}`);
  const now = options.now ?? new Date();
  if (format !== 'TD1' && format !== 'TD2' && format !== 'TD3' && format !== 'MRVA' && format !== 'MRVB') {
    return parseNationalFormat(format, lines, now);
  }
  return format === 'TD1' ? parseTd1(lines, now) : parseTwoLine(format, lines, now);
}

interface Slice {
  documentNumber: string;
  docCheck: string;
  docData: string;
  rest: string;
  altData?: string;
}

/** ICAO long document numbers: a `<` in the check position means the number continues in the optional data. */
function documentNumberOf(main: string, check: string, optional: string): Slice {
  if (check === '<' && /^[0-9A-Z]/.test(optional)) {
    const end = optional.indexOf('<');
    const overflow = end === -1 ? optional : optional.slice(0, end);
    const number = main + overflow.slice(0, -1);
    // Issuers disagree on whether the filler in the check position is part of the checked data (cheminfo/mrz
    // found both in real Belgian cards), so the alternative is accepted too.
    return {
      documentNumber: clean(number),
      docCheck: overflow.slice(-1),
      docData: main + overflow.slice(0, -1),
      altData: `${main}<${overflow.slice(0, -1)}`,
      rest: end === -1 ? '' : optional.slice(end),
    };
  }
  return { documentNumber: clean(main), docCheck: check, docData: main, rest: optional };
}

/**
 * Columns of a TD1 first line holding the document number, its check digit last: 5-14 in the plain layout;
 * for a long number (ICAO 9303-5: `<` at column 14, the number's remainder and its check digit continuing in
 * optional data 1 up to the first filler) 5-13 and then 15 onwards. The same reading as the parser's.
 */
export function td1NumberColumns(line: string): number[] {
  const main = Array.from({ length: 9 }, (_, i) => 5 + i);
  const mainText = line.slice(5, 14);
  const doc = documentNumberOf(mainText, line.charAt(14), line.slice(15, 30));
  if (doc.altData === undefined) return [...main, 14];
  // The remainder (what docData holds past the first part) and its check digit follow the filler at column 14.
  const overflow = doc.docData.length - mainText.length + 1;
  return [...main, ...Array.from({ length: overflow }, (_, i) => 15 + i)];
}

function parseTd1(lines: string[], now: Date): ParsedMrz {
  const [l1 = '', l2 = '', l3 = ''] = lines;
  const doc = documentNumberOf(l1.slice(5, 14), l1.charAt(14), l1.slice(15, 30));
  const checks: MrzCheck[] = [
    documentCheck(doc),
    check('birthDate', l2.slice(0, 6), l2.charAt(6)),
    check('expiryDate', l2.slice(8, 14), l2.charAt(14)),
    check('composite', l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29), l2.charAt(29)),
  ];
  return assemble('TD1', lines, checks, now, {
    code: l1.slice(0, 2),
    state: l1.slice(2, 5),
    name: l3,
    documentNumber: doc.documentNumber,
    nationality: l2.slice(15, 18),
    birth: l2.slice(0, 6),
    sex: l2.charAt(7),
    expiry: l2.slice(8, 14),
    optional: [clean(doc.rest), clean(l2.slice(18, 29))],
  });
}

function parseTwoLine(format: 'TD2' | 'TD3' | 'MRVA' | 'MRVB', lines: string[], now: Date): ParsedMrz {
  const [l1 = '', l2 = ''] = lines;
  const width = l2.length;
  const hasComposite = format === 'TD2' || format === 'TD3';
  const optionalEnd = format === 'TD3' ? 42 : hasComposite ? width - 1 : width;
  const optional = l2.slice(28, optionalEnd);
  // Long document numbers only exist in TD1/TD2 (ICAO 9303-5/-6); TD3 and visas have no overflow rule.
  const doc =
    format === 'TD2' ? documentNumberOf(l2.slice(0, 9), l2.charAt(9), optional) : documentNumberOf(l2.slice(0, 9), l2.charAt(9), '');
  const checks: MrzCheck[] = [
    documentCheck(doc),
    check('birthDate', l2.slice(13, 19), l2.charAt(19)),
    check('expiryDate', l2.slice(21, 27), l2.charAt(27)),
  ];
  let personalNumber: string | undefined;
  if (format === 'TD3') {
    personalNumber = clean(l2.slice(28, 42));
    checks.push(check('personalNumber', l2.slice(28, 42), l2.charAt(42)));
  }
  if (hasComposite) checks.push(check('composite', l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, width - 1), l2.charAt(width - 1)));
  return assemble(format, lines, checks, now, {
    code: l1.slice(0, 2),
    state: l1.slice(2, 5),
    name: l1.slice(5),
    documentNumber: doc.documentNumber,
    nationality: l2.slice(10, 13),
    birth: l2.slice(13, 19),
    sex: l2.charAt(20),
    expiry: l2.slice(21, 27),
    optional: format === 'TD3' ? [] : [clean(format === 'TD2' ? doc.rest : optional)],
    ...(personalNumber !== undefined ? { personalNumber } : {}),
  });
}

interface RawFields {
  code: string;
  state: string;
  name: string;
  documentNumber: string;
  nationality: string;
  birth: string;
  sex: string;
  expiry: string;
  optional: string[];
  personalNumber?: string;
}

function assemble(format: IcaoFormat, lines: string[], checks: MrzCheck[], now: Date, raw: RawFields): ParsedMrz {
  const problems: string[] = [];
  const issuingState = clean(raw.state);
  const nationality = clean(raw.nationality);
  if (!/^[A-Z<]{3}$/.test(raw.state)) problems.push('invalid_issuing_state');
  else if (!isKnownStateCode(issuingState)) problems.push('unknown_issuing_state');
  if (!/^[A-Z<]{3}$/.test(raw.nationality)) problems.push('invalid_nationality');
  else if (!isKnownStateCode(nationality)) problems.push('unknown_nationality');
  const birthDate = mrzDate(raw.birth, 'birth', now);
  const expiryDate = mrzDate(raw.expiry, 'expiry', now);
  if (birthDate === null) problems.push('invalid_birth_date');
  if (expiryDate === null) problems.push('invalid_expiry_date');
  const sex = raw.sex === 'M' || raw.sex === 'F' ? raw.sex : raw.sex === '<' || raw.sex === 'X' ? 'X' : null;
  if (sex === null) problems.push('invalid_sex');
  if (!/^[A-Z<]+$/.test(raw.name)) problems.push('invalid_name_characters');
  const { surname, givenNames } = splitName(raw.name);
  const documentCode = clean(raw.code);
  const fields: MrzFields = {
    documentType: documentTypeOf(documentCode),
    documentCode,
    issuingState,
    documentNumber: raw.documentNumber,
    surname,
    givenNames,
    nationality,
    birthDate,
    sex,
    expiryDate,
    optionalData: raw.optional.filter((o) => o.length > 0),
    ...(raw.personalNumber ? { personalNumber: raw.personalNumber } : {}),
  };
  const checkDigitsValid = checks.every((c) => c.valid);
  const structural = problems.filter((p) => !p.startsWith('unknown_'));
  return { format, lines, fields, checks, checkDigitsValid, problems, valid: checkDigitsValid && structural.length === 0 };
}

function documentCheck(doc: Slice): MrzCheck {
  const main = check('documentNumber', doc.docData, doc.docCheck);
  if (main.valid || doc.altData === undefined) return main;
  const alt = check('documentNumber', doc.altData, doc.docCheck);
  return alt.valid ? alt : main;
}

function check(field: CheckedField, data: string, digit: string): MrzCheck {
  return { field, data, digit, valid: isCheckDigitValid(data, digit) };
}

function clean(s: string): string {
  return s.replace(/<+$/, '').replace(/</g, ' ').trim();
}

export function splitName(field: string): { surname: string; givenNames: string } {
  const trimmed = field.replace(/<+$/, '');
  const sep = trimmed.indexOf('<<');
  const toWords = (s: string): string => s.replace(/<+/g, ' ').trim();
  if (sep === -1) return { surname: toWords(trimmed), givenNames: '' };
  return { surname: toWords(trimmed.slice(0, sep)), givenNames: toWords(trimmed.slice(sep + 2)) };
}

export function documentTypeOf(code: string): DocumentType {
  const c = code.charAt(0);
  if (c === 'P') return 'passport';
  if (c === 'V') return 'visa';
  if (c === 'I' || c === 'A' || c === 'C') return 'id_card';
  if (c === 'D') return 'driving_licence';
  return 'other';
}

/**
 * MRZ dates carry two-digit years. Birth dates take the latest century that is not in the future;
 * expiry dates take 20YY unless that lands more than 50 years ahead (a document cannot be valid that long).
 */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', now: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  const nowYear = now.getUTCFullYear();
  let year = 2000 + yy;
  if (kind === 'birth') {
    const candidate = new Date(Date.UTC(year, mm - 1, dd));
    if (candidate.getTime() > now.getTime()) year -= 100;
  } else if (year > nowYear + 50) year -= 100;
  const d = new Date(Date.UTC(year, mm - 1, dd));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return d.toISOString().slice(0, 10);
}

function parseNationalFormat(format: MrzFormat, lines: string[], now: Date): ParsedMrz {
  const r = parseNational(lines);
  const f = r.fields;
  const checks: MrzCheck[] = r.details
    .filter((d) => d.field !== null && d.field.endsWith('CheckDigit'))
    .map((d) => ({ field: nationalCheckName(d.field ?? ''), data: '', digit: d.value ?? '', valid: d.valid }));
  const problems = r.details
    .filter((d) => !d.valid && !(d.field ?? '').endsWith('CheckDigit'))
    .map((d) => `invalid_${snake(d.field ?? 'field')}`);
  const sexRaw = f.sex === 'male' ? 'M' : f.sex === 'female' ? 'F' : null;
  const fields: MrzFields = {
    documentType: format === 'FRENCH_NATIONAL_ID' ? 'id_card' : 'driving_licence',
    documentCode: f.documentCode ?? '',
    issuingState: f.issuingState ?? '',
    // The French identity card's number is the 12 characters its check digit covers (issue month, office,
    // serial: "110806200597" as printed on the card); the package's `fields.documentNumber` is the serial alone.
    documentNumber: format === 'FRENCH_NATIONAL_ID' ? (lines[1] ?? '').slice(0, 12) : (f.documentNumber ?? r.documentNumber ?? ''),
    surname: f.lastName ?? '',
    givenNames: f.firstName ?? '',
    nationality: f.nationality ?? f.issuingState ?? '',
    birthDate: f.birthDate ? mrzDate(f.birthDate, 'birth', now) : null,
    sex: sexRaw,
    expiryDate: f.expirationDate ? mrzDate(f.expirationDate, 'expiry', now) : null,
    optionalData: [],
  };
  const checkDigitsValid = checks.every((c) => c.valid);
  return { format, lines, fields, checks, checkDigitsValid, problems, valid: r.valid };
}

function nationalCheckName(field: string): CheckedField {
  if (field.startsWith('birth')) return 'birthDate';
  if (field.startsWith('expiration')) return 'expiryDate';
  if (field.startsWith('personal')) return 'personalNumber';
  if (field.startsWith('composite')) return 'composite';
  return 'documentNumber';
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
