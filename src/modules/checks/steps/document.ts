import { Type } from '@sinclair/typebox';
import { CountryCode } from '../../../platform/schemas.js';
import { alpha3Codes } from '../../../engines/screening/countries.js';
import { fieldsFromDocument } from '../kernel/index.js';
import { DOCUMENT_TYPES, evaluateDocument, type DocumentUpload } from '../document/index.js';
import type { PipelineStep } from '../check-type.js';
import { withoutEngine } from './outcomes.js';

export const documentSettings = Type.Object(
  {
    accepted_types: Type.Optional(
      Type.Array(Type.Union(DOCUMENT_TYPES.map((t) => Type.Literal(t))), {
        minItems: 1,
        uniqueItems: true,
        description: 'Document types accepted (default: all).',
      }),
    ),
    accepted_countries: Type.Optional(
      Type.Array(CountryCode(), {
        minItems: 1,
        maxItems: 250,
        uniqueItems: true,
        description: 'Issuing countries accepted (default: all).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Reads the document front (and back); its fields and portrait feed the later steps. */
export const documentStep: PipelineStep = async (settings, st, res) => {
  const front = st.media.get('document_front');
  if (!front) return withoutEngine('failed', 'capture_missing', 'No document front was captured.');
  const uploads: DocumentUpload[] = [{ side: 'front', kind: 'document_front', contentType: front.contentType, data: front.data }];
  const back = st.media.get('document_back');
  if (back) uploads.push({ side: 'back', kind: 'document_back', contentType: back.contentType, data: back.data });
  const accepted = settings.accepted_countries as string[] | undefined;
  const e = await evaluateDocument({
    ctx: st.ctx,
    settings: res.resources.config.checks.document,
    resources: res.resources,
    uploads,
    rules: {
      ...(settings.accepted_types ? { expectedDocumentTypes: settings.accepted_types as string[] } : {}),
      ...(accepted ? { allowedCountries: accepted.flatMap(alpha3Codes) } : {}),
    },
  });
  if (e.fields) {
    st.fields = fieldsFromDocument(e.fields);
    st.fieldsRead = true;
  }
  st.portrait = e.portrait;
  if (e.portrait) st.produced.push({ kind: 'document_portrait', contentType: 'image/jpeg', data: e.portrait, check: 'document' });
  st.used.set('document', [front.id, ...(back ? [back.id] : [])]);
  return e.outcome;
};
