import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';

export const LIST_NAMES = ['blocklist', 'allowlist'] as const;
export const ENTRY_KINDS = [
  'name',
  'screening_entity',
  'subject',
  'email',
  'phone',
  'document_number',
  'wallet_address',
  'ip_address',
] as const;

export const ListParam = Type.Object({
  list: Type.Union(
    LIST_NAMES.map((l) => Type.Literal(l)),
    { description: 'blocklist forces a match or decline; allowlist suppresses a match.' },
  ),
});
export const EntryParams = Type.Composite([ListParam, Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })]);

export const CreateListEntry = Type.Object(
  {
    kind: Type.Union(
      ENTRY_KINDS.map((k) => Type.Literal(k)),
      {
        description:
          'What value names: a person or organisation name, a screening list entity id (with subject_reference on the allowlist: "this subject is not that entity"), one of your subject references, an email, a phone number, a document number, a wallet address or an IP address.',
      },
    ),
    value: Type.String({ minLength: 1, maxLength: 500 }),
    reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Why the entry exists; kept in the audit trail.' }),
    subject_reference: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Limits the entry to one subject. Required for allowlist entries of kind screening_entity.',
      }),
    ),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'The entry stops applying at this moment.' })),
  },
  { additionalProperties: false },
);
export type CreateListEntry = Static<typeof CreateListEntry>;

export const ListEntry = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('list_entry'),
    list: Type.String(),
    kind: Type.String(),
    value: Type.String(),
    normalized_value: Type.String({ description: 'The value as matched: case, spacing and formatting folded.' }),
    subject_reference: Type.Union([Type.String(), Type.Null()]),
    reason: Type.String(),
    created_by: Type.String(),
    expires_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
  },
  { title: 'ListEntry' },
);
export type ListEntry = Static<typeof ListEntry>;

export const ListEntriesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  kind: Type.Optional(Type.Union(ENTRY_KINDS.map((k) => Type.Literal(k)))),
  subject_reference: Type.Optional(Type.String({ maxLength: 200 })),
});
