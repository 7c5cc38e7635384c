/** ICAO 9303 check-digit arithmetic and character classes, shared by the parser and the OCR corrector. */

const WEIGHTS = [7, 3, 1] as const;

/** Value of one MRZ character in the ICAO 9303 check-digit sum; -1 for characters outside the MRZ alphabet. */
export function mrzCharValue(ch: string): number {
  if (ch === '<') return 0;
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/** ICAO 9303 check digit (weights 7-3-1, modulo 10) of a field; null when it contains characters outside the MRZ alphabet. */
export function checkDigit(field: string): number | null {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const v = mrzCharValue(field[i] ?? '');
    if (v < 0) return null;
    sum += v * (WEIGHTS[i % 3] ?? 1);
  }
  return sum % 10;
}

/**
 * Whether `digit` is the right check digit for `field`. ICAO allows a filler `<` as the check digit of an
 * empty optional field (e.g. an unused TD3 personal number), which counts as 0.
 */
export function isCheckDigitValid(field: string, digit: string): boolean {
  const expected = checkDigit(field);
  if (expected === null) return false;
  if (digit === '<') return expected === 0 && /^<*$/.test(field);
  return digit === String(expected);
}

/**
 * A long document number's check (ICAO 9303-5): issuers disagree on whether the filler that ends the number's
 * first part is covered, so the data passes with or without a `<` put back at `fillerAt` (-1: no filler).
 */
export function isLongNumberCheckValid(data: string, digit: string, fillerAt: number): boolean {
  return (
    isCheckDigitValid(data, digit) || (fillerAt >= 0 && isCheckDigitValid(`${data.slice(0, fillerAt)}<${data.slice(fillerAt)}`, digit))
  );
}

/** Characters OCR commonly confuses, keyed by the character that was read, with the plausible intended ones. */
export const TO_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
};
export const TO_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '8': 'B',
  '7': 'T',
};
