// ISO 17442 Legal Entity Identifier: 18 alphanumerics followed by two check digits (ISO 7064 MOD 97-10).

const LEI_SHAPE = /^[0-9A-Z]{18}[0-9]{2}$/;

/** Remainder mod 97 of the string read as digits, letters expanded A=10 … Z=35, computed piecewise to stay in integer range. */
function mod97(s: string): number {
  let rest = 0;
  for (const ch of s) {
    const v = Number.parseInt(ch, 36);
    rest = v < 10 ? (rest * 10 + v) % 97 : (rest * 100 + v) % 97;
  }
  return rest;
}

/** True when the LEI has the ISO 17442 shape and its check digits hold (the whole code mod 97 is 1). */
export function isValidLei(lei: string): boolean {
  return LEI_SHAPE.test(lei) && mod97(lei) === 1;
}

/** The two check digits for an 18-character LEI prefix, e.g. to build test LEIs. */
export function leiCheckDigits(prefix18: string): string {
  if (!/^[0-9A-Z]{18}$/.test(prefix18)) throw new RangeError('an LEI prefix is 18 characters 0-9 A-Z');
  return String(98 - mod97(`${prefix18}00`)).padStart(2, '0');
}
