import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The configuration's building blocks. Each setting is a TypeBox schema that names the environment
 * variable it is read from (`env`), its default and its bounds; a section is an object of them (plus,
 * where one variable depends on another, a `build` step). `src/config.ts` assembles the platform's
 * section and every module's into one tree, read and validated once at start.
 *
 * This file imports nothing but TypeBox, so a module's `config.ts` (its section) can be imported by
 * the configuration loader without loading the module itself (docs/architecture.md, "Configuration and
 * resources").
 */

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** The environment a configuration is read from: the process environment at start, a plain record in tests. */
export type EnvVars = Readonly<Record<string, string | undefined>>;

/** Declarations of one variable each. Text and URLs are optional (absent: undefined) unless a default is given. */
export const Var = {
  int: (env: string, def: number, minimum: number, maximum: number) => Type.Integer({ env, default: def, minimum, maximum }),
  num: (env: string, def: number, minimum: number, maximum: number) => Type.Number({ env, default: def, minimum, maximum }),
  bool: (env: string, def: boolean) => Type.Boolean({ env, default: def }),
  /** A boolean whose default depends on other settings (absent: undefined, decided by the section's build). */
  optionalBool: (env: string) => Type.Optional(Type.Boolean({ env })),
  /** Free text; with `pattern`, a value that does not match is refused with `hint`. `secret` values are never echoed. */
  text: (env: string, o: { pattern?: string; hint?: string; secret?: boolean } = {}) =>
    Type.Optional(Type.String({ env, ...(o.pattern ? { pattern: o.pattern } : {}), hint: o.hint, secret: o.secret })),
  /** One of a fixed set of words. */
  oneOf: <T extends string>(env: string, values: readonly T[]) =>
    Type.Optional(
      Type.Union(
        values.map((v) => Type.Literal(v)),
        { env },
      ),
    ),
  /** A URL with one of these protocols (`['https:']`). Never echoed: URLs carry passwords. */
  url: (env: string, protocols: string[]) => Type.Optional(Type.String({ env, protocols })),
  /** Comma-separated non-negative numbers. */
  numbers: (env: string, def: number[]) => Type.Array(Type.Number({ minimum: 0 }), { env, default: def, minItems: 1 }),
  /** Comma-separated names, each one of `known`; empty by default. */
  names: <T extends string>(env: string, known: readonly T[]) =>
    Type.Array(Type.Union(known.map((k) => Type.Literal(k))), { env, default: [] }),
};

/** The variables of a section, as an object schema. */
export const vars = <P extends Record<string, TSchema>>(properties: P) => Type.Object(properties);

export interface ConfigSection<T> {
  /** The section's variables, for documentation and the docs test. */
  variables(): string[];
  /** Reads the section; problems are appended, never thrown, so every problem is reported at once. */
  read(env: EnvVars, problems: string[]): T;
}

export type SectionValue<S> = S extends ConfigSection<infer T> ? T : never;

/**
 * A section: its variables, read and validated by their schemas, then (optionally) `build`, which may
 * check one variable against another, derive values and add problems.
 */
export function section<S extends TObject, T = Static<S>>(
  schema: S,
  build?: (values: Static<S>, problems: string[], env: EnvVars) => T,
): ConfigSection<T> {
  return {
    variables: () => Object.values(schema.properties).map((p) => (p as TSchema & { env: string }).env),
    read(env, problems) {
      const values = readVars(schema, env, problems);
      return build ? build(values, problems, env) : (values as T);
    },
  };
}

/** Sections of one module (the check family) or of the whole tree, under their names. */
export function group<R extends Record<string, ConfigSection<unknown>>>(
  sections: R,
): ConfigSection<{ [K in keyof R]: SectionValue<R[K]> }> {
  return {
    variables: () => Object.values(sections).flatMap((s) => s.variables()),
    read(env, problems) {
      return Object.fromEntries(Object.entries(sections).map(([k, s]) => [k, s.read(env, problems)])) as never;
    },
  };
}

/** Reads one section alone and throws every problem (tests, the CLI). */
export function loadSection<T>(s: ConfigSection<T>, env: EnvVars): T {
  const problems: string[] = [];
  const value = s.read(env, problems);
  if (problems.length) throw new ConfigError(problems);
  return value;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];
const INVALID = Symbol('invalid');

function readVars<S extends TObject>(schema: S, env: EnvVars, problems: string[]): Static<S> {
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(schema.properties) as [string, TSchema][]) {
    const name = prop.env as string;
    const raw = env[name] === '' ? undefined : env[name];
    if (raw === undefined) {
      out[key] = Value.Clone(prop.default);
      continue;
    }
    const value = coerce(prop, raw);
    if (value !== INVALID && Value.Check(prop, value) && protocolOk(prop, raw)) {
      out[key] = value;
      continue;
    }
    problems.push(describe(name, prop, raw));
    out[key] = Value.Clone(prop.default);
  }
  return out as Static<S>;
}

function coerce(prop: TSchema, raw: string): unknown {
  switch (prop.type) {
    case 'integer':
    case 'number':
      return raw.trim() === '' ? INVALID : Number(raw);
    case 'boolean':
      return TRUE.includes(raw.toLowerCase()) ? true : FALSE.includes(raw.toLowerCase()) ? false : INVALID;
    case 'array': {
      const parts = raw.split(',').map((x) => x.trim());
      return prop.items.type === 'number' ? parts.map((x) => (x === '' ? NaN : Number(x))) : parts.filter(Boolean);
    }
    default:
      return raw;
  }
}

function protocolOk(prop: TSchema, raw: string): boolean {
  if (!prop.protocols) return true;
  try {
    return (prop.protocols as string[]).includes(new URL(raw).protocol);
  } catch {
    return false;
  }
}

/** The message an operator sees: the variable, what it must be, and (unless it may be a secret) what it was. */
function describe(name: string, prop: TSchema, raw: string): string {
  const got = ` (got "${raw}")`;
  switch (prop.type) {
    case 'integer':
      return `${name} must be an integer from ${prop.minimum} to ${prop.maximum}${got}`;
    case 'number':
      return `${name} must be a number from ${prop.minimum} to ${prop.maximum}${got}`;
    case 'boolean':
      return `${name} must be true or false${got}`;
    case 'array': {
      if (prop.items.type === 'number') return `${name} must be a comma-separated list of non-negative numbers${got}`;
      const known = (prop.items.anyOf as { const: string }[]).map((k) => k.const);
      const unknown = (coerce(prop, raw) as string[]).filter((x) => !known.includes(x));
      return `${name} names unknown value(s) ${unknown.join(', ')}; known: ${known.join(', ')}`;
    }
  }
  if (prop.anyOf) return `${name} must be one of ${(prop.anyOf as { const: string }[]).map((k) => k.const).join(', ')}${got}`;
  if (prop.protocols) return `${name} must be a URL starting with ${(prop.protocols as string[]).map((p) => `${p}//`).join(' or ')}`;
  return `${name} ${prop.hint ?? 'is not valid'}${prop.secret ? '' : got}`;
}
