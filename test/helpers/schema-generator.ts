/**
 * Values that a JSON schema of the OpenAPI document generates, at its edges (lengths and numbers at their limits, dates
 * far in the past and future, every enum value, unusual Unicode), from a seeded generator. Used by the fuzz tests.
 */

export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | Schema;
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
};

/** A chooser of one element, uniformly, from the seeded generator. */
export const picker =
  (rnd: () => number) =>
  <T>(xs: readonly T[]): T =>
    xs[Math.floor(rnd() * xs.length)] as T;

/**
 * A string that matches `pattern` (the subset of regular expressions our schemas use: anchors, literals, \d \w \s \S
 * and \xNN escapes, classes with ranges and negation, groups with alternation, ? * + {n} {n,m}).
 */
export function fromPattern(pattern: string, rnd: () => number): string {
  let i = 0;

  const pick = picker(rnd);
  const range = (a: string, b: string) =>
    Array.from({ length: b.charCodeAt(0) - a.charCodeAt(0) + 1 }, (_, k) => String.fromCharCode(a.charCodeAt(0) + k));
  const DIGITS = range('0', '9');
  const WORD = [...range('a', 'z'), ...range('A', 'Z'), ...DIGITS, '_'];
  const SAFE = [...WORD, '-', '.', ':', ' ', 'é'];
  const escape = (): string[] => {
    const c = pattern.charAt(i++);
    if (c === 'd') return DIGITS;
    if (c === 'w') return WORD;
    if (c === 's') return [' '];
    if (c === 'S') return WORD;
    if (c === 'x') {
      const h = pattern.slice(i, i + 2);
      i += 2;
      return [String.fromCharCode(parseInt(h, 16))];
    }
    return [c];
  };
  const klass = (): string[] => {
    const negate = pattern.charAt(i) === '^';
    if (negate) i++;
    const set: string[] = [];
    while (i < pattern.length && pattern.charAt(i) !== ']') {
      let from: string[];
      if (pattern.charAt(i) === '\\') {
        i++;
        from = escape();
      } else from = [pattern.charAt(i++)];
      if (pattern.charAt(i) === '-' && pattern.charAt(i + 1) !== ']' && from.length === 1) {
        i++;
        let to = pattern.charAt(i++);
        if (to === '\\') to = escape()[0] as string;
        set.push(...range(from[0] as string, to));
      } else set.push(...from);
    }
    i++;
    return negate ? SAFE.filter((c) => !set.includes(c)) : set;
  };
  const sequence = (): string => {
    const alternatives: string[] = [''];
    while (i < pattern.length && pattern.charAt(i) !== ')') {
      const c = pattern.charAt(i++);
      if (c === '|') {
        alternatives.push('');
        continue;
      }
      if (c === '^' || c === '$') continue;
      let atom: () => string;
      if (c === '(') {
        if (pattern.startsWith('?:', i)) i += 2;
        const start = i;
        sequence();
        const end = i;
        i++;
        const body = pattern.slice(start, end);
        atom = () => fromPattern(body, rnd);
      } else if (c === '[') {
        const set = klass();
        atom = () => pick(set);
      } else if (c === '\\') {
        const set = escape();
        atom = () => pick(set);
      } else if (c === '.') atom = () => pick(WORD);
      else atom = () => c;
      let min = 1;
      let max = 1;
      const q = pattern.charAt(i);
      if (q === '?') [min, max, i] = [0, 1, i + 1];
      else if (q === '*') [min, max, i] = [0, 3, i + 1];
      else if (q === '+') [min, max, i] = [1, 4, i + 1];
      else if (q === '{') {
        const close = pattern.indexOf('}', i);
        const [a, b] = pattern.slice(i + 1, close).split(',');
        min = Number(a);
        max = b === undefined ? min : b === '' ? min + 3 : Number(b);
        i = close + 1;
      }
      const n = pick([min, max, min + Math.floor(rnd() * (max - min + 1))]);
      let out = '';
      for (let k = 0; k < n; k++) out += atom();
      alternatives[alternatives.length - 1] += out;
    }
    return pick(alternatives);
  };
  return sequence();
}

export function generator(doc: { components?: { schemas?: Record<string, Schema> } }, rnd: () => number) {
  const pick = picker(rnd);
  const resolve = (s: Schema): Schema => {
    let out = s;
    for (let i = 0; out.$ref && i < 20; i++) out = doc.components?.schemas?.[out.$ref.split('/').pop() ?? ''] ?? {};
    return out;
  };
  const STRINGS = ['x', '', ' ', 'é', 'Ωmega', '\u202eabc', '😀', 'a'.repeat(64), 'ZZ', '0', '-1', 'null', 'O\u0027Brien', 'İstanbul'];
  const text = (s: Schema): string => {
    const min = s.minLength ?? 0;
    const max = Math.min(s.maxLength ?? 300, 5000);
    switch (s.format) {
      case 'date-time':
        return pick([
          '0001-01-01T00:00:00Z',
          '1970-01-01T00:00:00Z',
          '2026-11-27T00:00:00.123456Z',
          '9999-12-31T23:59:59Z',
          '2024-02-29T23:59:60Z',
          new Date().toISOString(),
        ]);
      case 'date':
        return pick(['0001-01-01', '1900-02-28', '2024-02-29', '9999-12-31', '2026-11-27']);
      case 'email':
        return pick(['a@b.co', `${'x'.repeat(64)}@example.org`, 'a+b@xn--bcher-kva.example', '"q"@example.org']);
      case 'uri':
      case 'url':
        return pick([
          'https://example.org/',
          'https://127.0.0.1:1/x',
          'http://[::1]/',
          `https://example.org/${'a'.repeat(1500)}`,
          'ftp://x',
        ]);
      case 'uuid':
        return '00000000-0000-0000-0000-000000000000';
    }
    if (s.examples?.length && rnd() < 0.5) return String(pick(s.examples));
    // Country and currency codes: mostly real ones, so that the body reaches the handler behind the code lists.
    if (s.pattern === '^[A-Z]{2}$' && rnd() < 0.8) return pick(['DE', 'US', 'GB', 'IR', 'KP', 'AE', 'NG', 'JP']);
    if (s.pattern === '^[A-Z]{3}$' && rnd() < 0.8) return pick(['EUR', 'USD', 'JPY', 'BHD', 'CHF', 'GBP']);
    if (s.pattern) return fromPattern(s.pattern, rnd);
    if (s.example !== undefined && rnd() < 0.5) return String(s.example);
    const r = rnd();
    let v = r < 0.3 ? 'a'.repeat(max) : r < 0.5 ? 'b'.repeat(min) : pick(STRINGS);
    if (v.length < min) v = v + 'c'.repeat(min - v.length);
    if ([...v].length > max) v = [...v].slice(0, max).join('');
    return v;
  };
  const num = (s: Schema, integer: boolean): number => {
    const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : undefined);
    const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : undefined);
    const options = [
      lo,
      hi,
      0,
      1,
      -1,
      integer ? 2 ** 31 : 1e308,
      integer ? Number.MAX_SAFE_INTEGER : 0.1 + 0.2,
      integer ? -(2 ** 31) : -1e-300,
    ].filter((x): x is number => x !== undefined && (lo === undefined || x >= lo) && (hi === undefined || x <= hi));
    const v = options.length ? pick(options) : (lo ?? 0);
    return integer ? Math.trunc(v) : v;
  };
  /** Values that a property of this name must hold to get past the handler's own lists (journeys, scopes, chains…). */
  const HINTS: Record<string, unknown[]> = {
    journey: ['kyc_standard'],
    chain: ['bitcoin', 'ethereum', 'tron'],
    address: [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ],
    expression: ['tx.amount > 1000.0', 'subject.country == "IR"', 'agg.missing > 1', 'true'],
    scopes: [['verifications:write'], ['lists:read', 'lists:write']],
    event_types: [['verification.completed'], ['alert.created', 'case.updated']],
    url: ['https://hooks.example.org/verity'],
    destination: ['+4915112345678', 'someone@example.org'],
    channel: ['sms', 'email'],
  };
  const gen = (schema: Schema, depth: number, name = ''): unknown => {
    if (HINTS[name] && rnd() < 0.7) return pick(HINTS[name] as unknown[]);
    const s = resolve(schema);
    if (s.const !== undefined) return s.const;
    if (s.enum) return pick(s.enum);
    const alts = s.anyOf ?? s.oneOf;
    if (alts) return gen(pick(alts), depth);
    if (s.allOf) return Object.assign({}, ...s.allOf.map((x) => gen(x, depth) as object));
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : ['string'];
    const type = pick(types.length > 1 && rnd() < 0.8 ? types.filter((x) => x !== 'null') : types);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return rnd() < 0.5;
      case 'integer':
        return num(s, true);
      case 'number':
        return num(s, false);
      case 'string':
        return text(s);
      case 'array': {
        const min = s.minItems ?? 0;
        const max = Math.min(s.maxItems ?? 5, depth > 3 ? 1 : 50);
        const n = pick([min, max, Math.min(max, min + 1)]);
        return Array.from({ length: n }, () => gen(s.items ?? {}, depth + 1));
      }
      default: {
        const out: Record<string, unknown> = {};
        if (depth > 6) return out;
        for (const [k, v] of Object.entries(s.properties ?? {})) if (s.required?.includes(k) || rnd() < 0.6) out[k] = gen(v, depth + 1, k);
        return out;
      }
    }
  };
  return (s: Schema) => gen(s, 0);
}
