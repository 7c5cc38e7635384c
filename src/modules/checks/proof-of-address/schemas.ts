import { Type, type Static } from '@sinclair/typebox';
import { CountryCode } from '../../../platform/schemas.js';
import { checkBody, ImageField } from '../kernel/index.js';

export const Country = CountryCode();

/** Files the document checks read: PDF (text layer, or rendered and OCR'd when scanned) and images. */
export const DOCUMENT_MEDIA = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/tiff'];
/** Same limit as the text engine's default input limit. */
export const MAX_DOCUMENT_BYTES = 15 * 1024 * 1024;

export const ProofOfAddressBody = checkBody({
  document: ImageField('The address document: PDF, JPEG, PNG, WebP or TIFF, at most 15 MiB.'),
  subject_name: Type.String({ minLength: 1, maxLength: 200, description: 'The name the document must be addressed to.' }),
  country: Type.Optional(Country),
  max_age_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 3650, default: 90, description: 'Oldest acceptable issue date, in days before today.' }),
  ),
});
export type ProofOfAddressBody = Static<typeof ProofOfAddressBody>;
