import { Type, type Static } from '@sinclair/typebox';
import { checkBody, ImageField } from '../kernel/index.js';

export const DOCUMENT_TYPES = ['passport', 'id_card', 'driving_licence', 'visa'] as const;

export const DocumentCheckBody = checkBody({
  front: ImageField("The document's front (a passport's data page)."),
  back: Type.Optional(ImageField('The back of a card (ID cards carry the MRZ there, US/Canadian licences the PDF417 barcode).')),
  minimum_age: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 120, description: 'Holders younger than this fail with under_minimum_age.' }),
  ),
  allowed_countries: Type.Optional(
    Type.Array(
      Type.String({
        pattern: '^[A-Z]{1,3}$',
        description: 'ICAO 9303 code, e.g. FRA; Germany is D in MRZs (DEU and D are both accepted).',
      }),
      {
        minItems: 1,
        maxItems: 300,
        uniqueItems: true,
        description: 'Accepted issuing states; others fail with issuing_country_not_allowed.',
      },
    ),
  ),
  document_type: Type.Optional(
    Type.Union(
      DOCUMENT_TYPES.map((t) => Type.Literal(t)),
      { description: 'The expected document type; another type fails with document_type_not_accepted.' },
    ),
  ),
});
export type DocumentCheckBody = Static<typeof DocumentCheckBody>;
