import { Type } from '@sinclair/typebox';
import { fullName } from '../kernel/index.js';
import { evaluateProofOfAddress, TEXT_CHECKS } from '../proof-of-address/index.js';
import type { PipelineStep } from '../check-type.js';
import { withoutEngine } from './outcomes.js';

export const proofOfAddressSettings = Type.Object(
  { max_document_age_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, default: 90 })) },
  { additionalProperties: false },
);

/** Compares the address document's name with the identity document's, and checks its date. */
export const proofOfAddressStep: PipelineStep = async (settings, st, res) => {
  const doc = st.media.get('proof_of_address');
  if (!doc) return withoutEngine('failed', 'capture_missing', 'No proof-of-address document was captured.');
  const name = fullName(st.fields);
  if (!name)
    return withoutEngine(
      'needs_review',
      'poa_no_name',
      'No name was read from the identity document to compare the address document with.',
    );
  st.used.set('proof_of_address', [doc.id]);
  return evaluateProofOfAddress(doc.data, doc.contentType, {
    subjectName: name,
    country: st.subject.country ?? undefined,
    maxAgeDays: (settings.max_document_age_days as number | undefined) ?? 90,
    text: res.resources.get(TEXT_CHECKS),
  });
};
