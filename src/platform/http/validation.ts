import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isCountryAlpha2 } from '../countries.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** Formats the application adds to JSON Schema's (a country code checked against the ISO 3166 list …). */
export type CustomFormats = Record<string, (value: string) => boolean>;

function makeAjv(coerce: Options['coerceTypes'], externalSchemas: Record<string, unknown>, formats: CustomFormats): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  // RFC 3339 allows a leap second (23:59:60), but neither JavaScript's Date nor the handlers' arithmetic can hold one:
  // such a value would pass validation and fail later as a 500. A date-time is one that also parses as a Date.
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('iso3166-alpha2', { type: 'string', validate: isCountryAlpha2 });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, { type: 'string', validate });
  for (const schema of Object.values(externalSchemas)) {
    const id = (schema as { $id?: string }).$id;
    if (id && !ajv.getSchema(id)) ajv.addSchema(schema as object);
  }
  return ajv;
}

const rfc3339DateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };

/** An RFC 3339 date-time that JavaScript's Date represents (no leap second, a year from 0000 to 9999). */
export function isDateTime(value: string): boolean {
  return rfc3339DateTime.validate(value) && Number.isFinite(Date.parse(value));
}

const rfc3339Date = fullFormats.date as { validate: (value: string) => boolean };

/** A JSON Schema `date` (YYYY-MM-DD naming a day that exists): what a response with a `date` field can serialise. */
export function isDate(value: string): boolean {
  return rfc3339Date.validate(value);
}

/**
 * The validator factory given to Fastify's schemaController. JSON bodies are validated strictly
 * (42 is not a string, unknown fields are errors); query strings, path parameters and headers are
 * text by nature, so those are coerced ("?limit=10" → 10).
 */
export function buildValidator(externalSchemas: Record<string, unknown> = {}, formats: CustomFormats = {}) {
  const strict = makeAjv(false, externalSchemas, formats);
  const coercing = makeAjv('array', externalSchemas, formats);
  return ({ schema, httpPart }: { schema: unknown; httpPart?: string }) => {
    if (httpPart !== 'body') return coercing.compile(schema as object);
    const json = strict.compile(schema as object);
    const form = coercing.compile(schema as object);
    // multipart/form-data fields are text by nature, so a form body is coerced like a query string.
    const validate = (data: unknown) => {
      const v = data && typeof data === 'object' && (data as Record<symbol, unknown>)[MULTIPART_BODY] ? form : json;
      const ok = v(data);
      validate.errors = v.errors;
      return ok;
    };
    validate.errors = null as unknown;
    return validate;
  };
}

/** Marks a body that came from multipart/form-data (files arrive as base64 strings, like JSON uploads). */
export const MULTIPART_BODY = Symbol('multipart-body');
