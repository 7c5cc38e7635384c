// POST /v1/businesses/{id}/documents: a corporate document read with the existing text extraction (the
// document-AI worker: PDF text layer or OCR, plus its tamper signals), classified by the phrases each kind
// of document prints, with company name, number and date extracted and checked against the record.

import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { withTransaction } from '../../platform/transaction.js';
import { TextInputError } from '../../engines/text/index.js';
import type { ExtractedField, FieldSpec } from '../../engines/document-ai/index.js';
import { compareNames } from '../../engines/screening/name-score.js';
import { prepareName } from '../../engines/screening/normalize.js';
import { decodeUpload, type TextChecksLike } from './deps.js';
import { loadBusiness } from './get.js';
import { businessDocuments } from './repository.js';
import type { AttachDocument, BusinessDocument } from './schemas.js';

export const DOCUMENT_MEDIA = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/tiff'];
export const MAX_DOCUMENT_BYTES = 15 * 1024 * 1024;
/** Below this classification confidence the document goes to review. */
export const MIN_CONFIDENCE = 0.8;

/** Kinds of corporate document and the phrases that name them (Ballerine's category/type vocabulary). */
export const DOCUMENT_KINDS: Record<string, { category: string; phrases: string[] }> = {
  certificate_of_incorporation: {
    category: 'proof_of_registration',
    phrases: [
      'certificate of incorporation',
      'incorporated under the companies act',
      'certificate of registration',
      'is this day incorporated',
    ],
  },
  articles_of_association: {
    category: 'constitution',
    phrases: ['articles of association', 'memorandum of association', 'bylaws', 'by-laws'],
  },
  register_of_members: {
    category: 'proof_of_ownership',
    phrases: ['register of members', 'register of shareholders', 'shareholder register', 'register of directors and shareholders'],
  },
  certificate_of_good_standing: { category: 'proof_of_good_standing', phrases: ['certificate of good standing', 'in good standing'] },
  confirmation_statement: { category: 'annual_filing', phrases: ['confirmation statement', 'annual return'] },
  financial_statements: {
    category: 'financial_information',
    phrases: ['financial statements', 'balance sheet', 'profit and loss account', 'statement of comprehensive income'],
  },
  proof_of_business_address: {
    category: 'proof_of_address',
    phrases: ['electricity bill', 'utility bill', 'lease agreement', 'business rates', 'bank statement'],
  },
};

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SPECS: FieldSpec[] = [
  ...Object.entries(DOCUMENT_KINDS).map(([kind, k]) => ({ name: `kind_${kind}`, pattern: `(${k.phrases.map(esc).join('|')})` })),
  { name: 'company_name', anchor: 'Company name' },
  { name: 'company_name_line', pattern: "([A-Z0-9][A-Za-z0-9&.,' -]{1,80} (?:LIMITED|LTD|PLC|LLP|GMBH|S\\.?A\\.?|B\\.?V\\.?|INC|LLC))\\b" },
  { name: 'company_number', pattern: '(?:company|registration|registered)\\s*(?:number|no\\.?)\\s*:?\\s*([A-Z]{0,2}[0-9]{5,10})' },
  { name: 'document_date', type: 'date' },
];

const normNumber = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^0+/, '');

export async function attachDocument(
  ctx: RequestContext,
  text: TextChecksLike,
  id: string,
  input: AttachDocument,
): Promise<BusinessDocument> {
  const { row, entity } = await loadBusiness(ctx, id);
  const upload = decodeUpload('file', input.file, { maxBytes: MAX_DOCUMENT_BYTES, accept: DOCUMENT_MEDIA });
  const recordName = entity?.name ?? row.name;
  // The registered name itself, looked for as printed (any spacing or case): the surest cross-check.
  const words = recordName.split(/\s+/).filter(Boolean).map(esc);
  while (words.length > 1 && words.join('\\s+').length > 190) words.pop(); // the engine's pattern limit is 200
  const specs: FieldSpec[] = [
    ...SPECS,
    ...(words.join('').length <= 190 ? [{ name: 'record_name', pattern: `(${words.join('\\s+')})` }] : []),
  ];
  const r = await text.documentAi(upload.data, specs, { mime: upload.contentType, country: entity?.country }).catch((err: unknown) => {
    if (err instanceof TextInputError) throw invalid('file', err.message);
    throw err;
  });
  const field = (name: string): ExtractedField | undefined => r.fields.find((f) => f.name === name && f.value !== null);

  // Classification: each kind whose phrase is printed; one kind is sure, several are a doubt.
  const found = Object.keys(DOCUMENT_KINDS).filter((k) => field(`kind_${k}`));
  const kind = input.declared_type && found.includes(input.declared_type) ? input.declared_type : found[0];
  const confidence = kind ? Math.round((field(`kind_${kind}`)!.confidence / found.length) * 1000) / 1000 : 0;

  const printed = field('record_name');
  const name = (printed?.value ?? field('company_name')?.normalized ?? field('company_name_line')?.normalized ?? null) as string | null;
  const number = (field('company_number')?.normalized ?? null) as string | null;
  const date = (field('document_date')?.normalized ?? null) as string | null;
  const recordNumber = entity?.registrationNumber ?? (row.source === 'gb_coh' ? row.source_ref : null);
  const nameScore = printed
    ? 1
    : name
      ? compareNames(prepareName(recordName, 'organization'), prepareName(name, 'organization', false)).score
      : null;
  const checks = {
    name_matches_record: nameScore === null ? null : nameScore >= 0.9,
    number_matches_record: number && recordNumber ? normNumber(number) === normNumber(recordNumber) : null,
    date_not_in_future: date ? date <= new Date().toISOString().slice(0, 10) : null,
  };

  const reasons: string[] = [];
  if (!kind) reasons.push('document_type_unrecognised');
  else if (confidence < MIN_CONFIDENCE) reasons.push(found.length > 1 ? 'document_type_ambiguous' : 'document_type_low_confidence');
  if (input.declared_type && kind !== input.declared_type) reasons.push('declared_type_not_found');
  if (checks.name_matches_record === false) reasons.push('company_name_mismatch');
  if (checks.name_matches_record === null) reasons.push('company_name_not_found');
  if (checks.number_matches_record === false) reasons.push('company_number_mismatch');
  if (checks.date_not_in_future === false) reasons.push('document_date_in_future');
  if (r.tampering.some((s) => s.passed === false)) reasons.push('tampering_suspected');
  const status = reasons.length ? 'needs_review' : 'verified';

  const doc: BusinessDocument = {
    id: newId('businessDocument'),
    object: 'business_document',
    business_id: row.id,
    status,
    reasons,
    type: kind ?? null,
    category: kind ? DOCUMENT_KINDS[kind]!.category : null,
    confidence,
    declared_type: input.declared_type ?? null,
    content_type: upload.contentType,
    extracted: { company_name: name, company_number: number, document_date: date },
    cross_checks: { ...checks, name_score: nameScore },
    tampering: r.tampering.map((s) => ({ name: s.name, passed: s.passed, detail: s.detail ?? null })),
    text_source: r.textSource,
    created_at: new Date().toISOString(),
  };
  return withTransaction(ctx, async (tx) => {
    await businessDocuments.insert(tx, ctx, row.id, doc);
    await emitAudit(tx, ctx, {
      action: 'business.document_attached',
      resourceType: 'business',
      resourceId: row.id,
      metadata: { document_id: doc.id, type: doc.type, status, reasons },
    });
    await enqueueEvent(tx, ctx, {
      type: 'business.document_classified',
      resourceType: 'business',
      resourceId: row.id,
      data: { id: doc.id, business_id: row.id, type: doc.type, status, reasons },
    });
    return doc;
  });
}
