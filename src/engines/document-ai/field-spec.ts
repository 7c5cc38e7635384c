import type { FieldType } from './value-types.js';

/** A region on a page in relative coordinates (0..1 from the top-left). */
export interface RelativeRegion {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One caller-defined field: what it is called, how to find it, what type its value has. */
export interface FieldSpec {
  name: string;
  type?: FieldType;
  /** Label printed next to (right of, or under) the value, e.g. "Invoice number". */
  anchor?: string;
  /** Regular expression; capture group 1 is the value when present. */
  pattern?: string;
  region?: RelativeRegion;
  required?: boolean;
}

export class DocumentAiInputError extends Error {
  readonly code = 'invalid_field_spec';
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'DocumentAiInputError';
    this.field = field;
  }
}

const TYPES = new Set<FieldType>(['string', 'date', 'amount', 'iban', 'email', 'phone']);
export const MAX_FIELDS = 50;

/** Validates specs before any work: the HTTP layer maps the error to a 400 naming the field. */
export function validateFieldSpecs(specs: readonly FieldSpec[]): void {
  if (!Array.isArray(specs) || specs.length === 0) throw new DocumentAiInputError('fields', 'at least one field is required');
  if (specs.length > MAX_FIELDS) throw new DocumentAiInputError('fields', `at most ${MAX_FIELDS} fields are allowed`);
  const names = new Set<string>();
  specs.forEach((s, i) => {
    const at = `fields[${i}]`;
    if (!s.name || !/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(s.name))
      throw new DocumentAiInputError(`${at}.name`, 'name must be 1-64 letters, digits, _ . -');
    if (names.has(s.name)) throw new DocumentAiInputError(`${at}.name`, `duplicate field name ${s.name}`);
    names.add(s.name);
    const type = s.type ?? 'string';
    if (!TYPES.has(type)) throw new DocumentAiInputError(`${at}.type`, `unknown type ${String(type)}`);
    if (!s.anchor && !s.pattern && !s.region && type === 'string')
      throw new DocumentAiInputError(at, 'a string field needs an anchor, a pattern or a region');
    if (s.anchor !== undefined && (typeof s.anchor !== 'string' || s.anchor.trim().length === 0 || s.anchor.length > 100))
      throw new DocumentAiInputError(`${at}.anchor`, 'anchor must be 1-100 characters');
    if (s.pattern !== undefined) {
      if (typeof s.pattern !== 'string' || s.pattern.length > 200)
        throw new DocumentAiInputError(`${at}.pattern`, 'pattern must be at most 200 characters');
      // Nested quantifiers are the classic catastrophic-backtracking shape; refuse them outright.
      if (/\([^)]*[+*][^)]*\)[+*{]/.test(s.pattern)) throw new DocumentAiInputError(`${at}.pattern`, 'nested quantifiers are not allowed');
      try {
        new RegExp(s.pattern, 'i');
      } catch {
        throw new DocumentAiInputError(`${at}.pattern`, 'pattern is not a valid regular expression');
      }
    }
    if (s.region) {
      const r = s.region;
      const ok =
        Number.isInteger(r.page) &&
        r.page >= 1 &&
        [r.x, r.y, r.w, r.h].every((v) => typeof v === 'number' && v >= 0 && v <= 1) &&
        r.x + r.w <= 1.0001 &&
        r.y + r.h <= 1.0001 &&
        r.w > 0 &&
        r.h > 0;
      if (!ok) throw new DocumentAiInputError(`${at}.region`, 'region needs page >= 1 and x, y, w, h within 0..1');
    }
  });
}
