import { Type, type Static } from '@sinclair/typebox';
import { checkBody, ImageField } from '../kernel/index.js';
import { Country } from '../proof-of-address/index.js';

const Unit = (name: string) =>
  Type.Number({ minimum: 0, maximum: 1, description: `${name}, relative to the page (0..1 from the top-left).` });

export const FieldSpecSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Your name for the field: a letter, then letters, digits, _ . - (unique in the request).',
    }),
    type: Type.Optional(
      Type.Union(
        ['string', 'date', 'amount', 'iban', 'email', 'phone'].map((t) => Type.Literal(t)),
        { description: 'Value type: parsed, normalised and validated (IBAN mod-97, calendar date, phone number).' },
      ),
    ),
    anchor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Label printed next to the value (to its right or on the line below), e.g. "Invoice number".',
      }),
    ),
    pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Regular expression (case-insensitive); capture group 1 is the value. Nested quantifiers are refused.',
      }),
    ),
    region: Type.Optional(
      Type.Object(
        {
          page: Type.Integer({ minimum: 1 }),
          x: Unit('Left edge'),
          y: Unit('Top edge'),
          w: Unit('Width'),
          h: Unit('Height'),
        },
        { additionalProperties: false, description: 'Where on the page the value is printed.' },
      ),
    ),
    required: Type.Optional(Type.Boolean({ description: 'A required field that is not found sends the check to review.' })),
  },
  { additionalProperties: false },
);

export const DocumentAiBody = checkBody({
  document: ImageField('The document: PDF, JPEG, PNG, WebP or TIFF, at most 15 MiB.'),
  fields: Type.Array(FieldSpecSchema, {
    minItems: 1,
    maxItems: 50,
    description:
      'The fields to extract, in the order the result lists them. In multipart/form-data, a part holding this array as JSON text.',
  }),
  country: Type.Optional(Country),
});
export type DocumentAiBody = Static<typeof DocumentAiBody>;
