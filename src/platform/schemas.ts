import { isCountryAlpha2 } from './countries.js';
import { FormatRegistry, Type } from '@sinclair/typebox';
import { ERROR_CODES } from './errors.js';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(
        Object.keys(ERROR_CODES).map((c) => Type.Literal(c)),
        { description: 'Stable machine code.' },
      ),
      message: Type.String({ description: 'Human-readable text.' }),
      field: Type.Union([Type.String(), Type.Null()], {
        description: 'The offending request field (dotted path, header or query name), or null when no single field is at fault.',
      }),
      request_id: Type.String({ description: 'Identifier of the request; also sent as X-Request-Id.' }),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

/** An ISO 3166-1 alpha-2 country code, checked against the list (the format is registered for ajv in http/validation.ts and for TypeBox here). */
if (!FormatRegistry.Has('iso3166-alpha2')) FormatRegistry.Set('iso3166-alpha2', isCountryAlpha2);

export const CountryCode = (description = 'ISO 3166-1 alpha-2 country code, upper case.') =>
  Type.String({ pattern: '^[A-Z]{2}$', format: 'iso3166-alpha2', description });

/** A country as an ISO 3166-1 code or an English name that the screening engine knows. */
export const CountryNameOrCode = (description: string) => Type.String({ minLength: 2, maxLength: 60, format: 'country', description });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp.' });
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Standard error responses every authenticated route may give, for the OpenAPI document. */
export const standardErrors = {
  400: Type.Ref('Error'),
  401: Type.Ref('Error'),
  403: Type.Ref('Error'),
  404: Type.Ref('Error'),
  409: Type.Ref('Error'),
  429: Type.Ref('Error'),
  500: Type.Ref('Error'),
};

export function iso(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return (d instanceof Date ? d : new Date(d)).toISOString();
}
