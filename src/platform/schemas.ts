import { Type } from '@sinclair/typebox';
import { ERROR_CODES } from './errors.js';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(Object.keys(ERROR_CODES).map((c) => Type.Literal(c)), { description: 'Stable machine code.' }),
      message: Type.String({ description: 'Human-readable text.' }),
      field: Type.Union([Type.String(), Type.Null()], { description: 'The offending request field (dotted path, header or query name), or null when no single field is at fault.' }),
      request_id: Type.String({ description: 'Identifier of the request; also sent as X-Request-Id.' }),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

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
