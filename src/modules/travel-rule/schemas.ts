import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../../platform/pagination.js';
import { Timestamp } from '../../platform/schemas.js';
import { REJECT_CODES } from '../../engines/travel-rule/index.js';

const lit = <T extends string>(xs: readonly T[], o: object = {}) =>
  Type.Union(
    xs.map((x) => Type.Literal(x)),
    o,
  );
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, o: object = {}) => Type.Union([t, Type.Null()], o);

export const DIRECTIONS = ['outgoing', 'incoming'] as const;
export const STATUSES = [
  'draft',
  'sent',
  'received',
  'in_review',
  'accepted',
  'rejected',
  'repair_requested',
  'completed',
  'canceled',
  'saved',
] as const;
export const PROTOCOLS = ['trp', 'email', 'manual'] as const;
export const ACTIONS = ['send', 'save', 'receive', 'review', 'accept', 'reject', 'request_repair', 'confirm', 'cancel'] as const;
export const DUE_DILIGENCE = ['unknown', 'pending', 'approved', 'restricted', 'blocked'] as const;
export const COUNTERPARTY_PROTOCOLS = ['trp', 'trisa', 'email'] as const;

const Decimal = (description: string) => Type.String({ pattern: '^\\d{1,30}(\\.\\d{1,18})?$', maxLength: 49, description });
const RejectCode = lit([...REJECT_CODES.keys()], { description: 'Reason code (TRISA error codes, lower case).' });
const Text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: '\\S', description });
/** IVMS101 is validated by the engine (our own JSON Schema and rules), which names the failing path. */
const Ivms101 = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'IVMS101 (2020) identity payload: originator, beneficiary, originatingVASP, beneficiaryVASP.',
  },
);
const Money = Type.Object(
  { value: Decimal('Decimal string.'), currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }) },
  { additionalProperties: false },
);
const Asset = Type.Object(
  {
    dti: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{9}$', description: 'ISO 24165 Digital Token Identifier.' })),
    slip0044: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, description: 'SLIP-0044 coin type (0 Bitcoin, 60 Ether).' })),
    symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Ticker, for people (BTC, ETH, USDT).' })),
  },
  { additionalProperties: false, description: 'At least one of dti and slip0044 (TRP needs one).' },
);

const ADDRESS_ACTIONS = ['proceed', 'hold', 'reject'] as const;
const AddressRiskActions = Type.Object(
  {
    low: Type.Optional(lit(ADDRESS_ACTIONS)),
    medium: Type.Optional(lit(ADDRESS_ACTIONS)),
    high: Type.Optional(lit(ADDRESS_ACTIONS)),
    severe: Type.Optional(lit(ADDRESS_ACTIONS)),
  },
  {
    additionalProperties: false,
    description:
      "Wallet-screening level of a message's addresses → what happens to the message. hold: an incoming message goes in review, an outgoing one stays a draft; reject: an incoming message is rejected (high_risk), an outgoing one is canceled. Defaults: high hold, severe reject, others proceed.",
  },
);

export const Screening = Type.Object({
  status: lit(['pending', 'no_match', 'potential_match', 'match', 'error', 'not_screened'] as const, {
    description: "The names' screening (incoming messages); not_screened on outgoing messages, whose addresses only are screened.",
  }),
  names: Type.Array(
    Type.Object({
      role: Type.String({ description: 'originator, originating_vasp or counterparty.' }),
      name: Type.String(),
      status: Type.String(),
      hits: Type.Array(
        Type.Object({
          entity_id: Type.String(),
          names: Type.Array(Type.String()),
          score: Type.Number(),
          datasets: Type.Array(Type.String()),
        }),
      ),
    }),
  ),
  addresses: Type.Array(
    Type.Object({
      role: Type.String({ description: "originator or beneficiary (IVMS101 account numbers; the deposit address is the beneficiary's)." }),
      address: Type.String(),
      valid: Type.Boolean(),
      chains: Type.Array(Type.String(), { description: 'The chain screened first, then the other chains the format fits.' }),
      reason: Nullable(Type.String()),
      wallet_screening: lit(['screened', 'invalid', 'error'] as const, {
        description: 'screened: the full wallet screening (lists, attribution, block list, N-hop exposure, policy) ran.',
      }),
      level: Nullable(lit(['low', 'medium', 'high', 'severe'] as const)),
      score: Nullable(Type.Number()),
      findings: Type.Array(
        Type.Object({
          category: Type.String(),
          exposure: lit(['direct', 'indirect'] as const),
          direction: Type.String(),
          hops: Type.Integer(),
          share: Type.Number(),
          level: Nullable(Type.String()),
          sources: Type.Array(Type.Object({ list: Type.String(), version: Type.String(), entity_name: Nullable(Type.String()) })),
        }),
      ),
      list_versions: Type.Record(Type.String(), Type.String()),
      action: lit(ADDRESS_ACTIONS, { description: "What this address's level does under the environment's address_risk_actions." }),
    }),
  ),
  address_outcome: Type.Optional(
    Type.Object(
      {
        level: Nullable(lit(['low', 'medium', 'high', 'severe'] as const)),
        action: lit(ADDRESS_ACTIONS),
      },
      { description: 'The worst level of the addresses and the strictest action, which the message followed.' },
    ),
  ),
  lists: Type.Array(Type.Object({ name: Type.String(), version: Type.String() })),
  screened_at: Nullable(Timestamp),
  error: Type.Optional(Type.String()),
});

export const TravelRuleMessage = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('travel_rule_message'),
    direction: lit(DIRECTIONS),
    status: lit(STATUSES, {
      description:
        'outgoing: draft → sent → accepted | rejected | repair_requested → completed | canceled; incoming: received → in_review → accepted | rejected | repair_requested → completed | canceled; saved: below the threshold, recorded and not sent.',
    }),
    protocol: lit(PROTOCOLS, {
      description:
        "trp: delivered and answered over TRP; email: the counterparty's Travel Rule contact gets a link to a hosted page where it answers; manual: recorded here, exchanged by other means.",
    }),
    counterparty_id: Nullable(Type.String()),
    request_identifier: Type.String({ description: 'TRP request-identifier: one per transfer, kept through repairs.' }),
    travel_address: Nullable(Type.String()),
    asset: Asset,
    amount: Type.String({ description: 'Decimal string in the asset unit.' }),
    amount_fiat: Nullable(Money),
    threshold_applied: Type.Object({
      jurisdiction: Type.String(),
      threshold: Money,
      source: Type.String(),
      outcome: lit(['required', 'saved'] as const),
      reason: Type.String(),
    }),
    ivms101: Ivms101,
    originator_name: Nullable(Type.String()),
    beneficiary_name: Nullable(Type.String()),
    destination_address: Nullable(Type.String({ description: "The beneficiary's deposit address (from the acceptance)." })),
    tx_hash: Nullable(Type.String()),
    rejection: Nullable(
      Type.Object({
        code: Type.String(),
        message: Type.String(),
        retryable: Type.Boolean(),
        kind: lit(['rejected', 'repair_requested'] as const),
      }),
    ),
    screening: Nullable(Screening, {
      description:
        'Incoming messages: the originator names screened and every address wallet-screened by a job after receipt; outgoing messages: the addresses wallet-screened before sending.',
    }),
    warnings: Type.Array(Type.String(), {
      description: 'Normalisations and lenient-profile findings (e.g. a bad LEI check digit) on received data.',
    }),
    delivery: Nullable(
      Type.Object({
        state: lit(['pending', 'delivered', 'failed'] as const),
        kind: Type.String({ description: 'inquiry, resolution or confirmation.' }),
        attempts: Type.Integer(),
        last_error: Nullable(Type.String()),
        delivered_at: Nullable(Timestamp),
      }),
      { description: 'TRP messages: the last message handed to the outbox and how its delivery went.' },
    ),
    reference: Nullable(Type.String()),
    allowed_actions: Type.Array(Type.String(), { description: 'Actions the lifecycle allows from the current status.' }),
    transitions: Type.Optional(
      Type.Array(
        Type.Object({
          from: Nullable(Type.String()),
          to: Type.String(),
          action: Type.String(),
          actor: Type.String(),
          note: Nullable(Type.String()),
          at: Timestamp,
        }),
      ),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'TravelRuleMessage' },
);
export type TravelRuleMessage = Static<typeof TravelRuleMessage>;

export const CreateMessage = Type.Object(
  {
    direction: Type.Optional(
      lit(DIRECTIONS, { description: 'Default outgoing (send). incoming records a message received by other means.' }),
    ),
    protocol: Type.Optional(
      lit(PROTOCOLS, {
        description:
          'Default trp for outgoing (email: the fallback for a counterparty without a protocol, needs its email entry), manual for incoming.',
      }),
    ),
    counterparty_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    travel_address: Type.Optional(Type.String({ minLength: 3, maxLength: 2000, description: "The beneficiary's travel address (ta…)." })),
    asset: Asset,
    amount: Decimal('Amount in the asset unit, a decimal string.'),
    amount_fiat: Type.Optional(Money),
    jurisdiction: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{2,5}$',
        description: 'Whose threshold applies: FATF (default), EU, US, CH, SG, UK or a country code.',
      }),
    ),
    ivms101: Ivms101,
    destination_address: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    request_identifier: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Incoming only: the sender’s identifier.' }),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your own reference (e.g. the withdrawal id).' })),
    send: Type.Optional(Type.Boolean({ description: 'Outgoing: false keeps the message in draft. Default true.' })),
  },
  { additionalProperties: false },
);
export type CreateMessage = Static<typeof CreateMessage>;

export const SendBody = Type.Object(
  { ivms101: Type.Optional(Ivms101), note: Type.Optional(Text(500, 'Kept in the trail.')) },
  { additionalProperties: false, description: 'A repaired message may carry corrected IVMS101 data.' },
);
export const NoteBody = Type.Object({ note: Type.Optional(Text(500, 'Kept in the trail.')) }, { additionalProperties: false });
export const AcceptBody = Type.Object(
  {
    destination_address: Type.String({ minLength: 1, maxLength: 200, description: 'The deposit address the originator pays to.' }),
    beneficiary: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'IVMS101 Beneficiary: completes the beneficiary data.' }),
    ),
    note: Type.Optional(Text(500, 'Kept in the trail.')),
  },
  { additionalProperties: false },
);
export const RejectBody = Type.Object(
  {
    code: RejectCode,
    message: Text(500, 'Sent to the counterparty: no personal data.'),
    retry: Type.Optional(Type.Boolean({ description: "Whether a retry may help; default the code's own flag." })),
  },
  { additionalProperties: false },
);
export const RepairBody = Type.Object(
  {
    code: Type.Optional(lit(['missing_fields', 'incomplete_identity', 'validation_error', 'unparseable_identity'] as const)),
    message: Text(500, 'What to repair (e.g. the missing fields). Sent to the counterparty.'),
  },
  { additionalProperties: false },
);
export const ConfirmBody = Type.Object(
  { tx_hash: Type.String({ minLength: 8, maxLength: 200, pattern: '^[0-9A-Za-z:_-]+$', description: 'The on-chain transaction hash.' }) },
  { additionalProperties: false },
);
export const CancelBody = Type.Object({ reason: Text(500, 'Why; sent to the counterparty.') }, { additionalProperties: false });

export const MessagesQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(lit(STATUSES)),
  direction: Type.Optional(lit(DIRECTIONS)),
  counterparty_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  request_identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export type MessagesQuery = Static<typeof MessagesQuery>;

const ProtocolEntry = Type.Object(
  {
    protocol: lit(COUNTERPARTY_PROTOCOLS),
    endpoint: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'TRP: the base URL inquiries are posted to.' })),
    travel_address: Type.Optional(Type.String({ minLength: 3, maxLength: 2000 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
  },
  { additionalProperties: false },
);
const CounterpartyFields = {
  name: Text(300, 'Display name.'),
  legal_name: Text(300, 'Registered legal name; screened against the lists.'),
  lei: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{18}[0-9]{2}$', description: 'ISO 17442 LEI; check digits verified.' })),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  website: Type.Optional(Type.String({ format: 'uri', maxLength: 2000 })),
  domains: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z0-9.-]+(:\\d+)?$', maxLength: 253 }), { maxItems: 20 })),
  travel_addresses: Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 2000 }), { maxItems: 50 })),
  protocols: Type.Optional(Type.Array(ProtocolEntry, { maxItems: 10 })),
  due_diligence_status: Type.Optional(
    lit(DUE_DILIGENCE, { description: 'blocked: inquiries from it are refused and nothing is sent to it.' }),
  ),
  due_diligence_notes: Type.Optional(Type.String({ maxLength: 2000 })),
};
export const CreateCounterparty = Type.Object(CounterpartyFields, { additionalProperties: false });
export type CreateCounterparty = Static<typeof CreateCounterparty>;
export const UpdateCounterparty = Type.Partial(Type.Object(CounterpartyFields), { additionalProperties: false, minProperties: 1 });
export type UpdateCounterparty = Static<typeof UpdateCounterparty>;

export const Counterparty = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('counterparty'),
    name: Type.String(),
    legal_name: Type.String(),
    lei: Nullable(Type.String()),
    country: Nullable(Type.String()),
    website: Nullable(Type.String()),
    domains: Type.Array(Type.String()),
    travel_addresses: Type.Array(Type.String()),
    protocols: Type.Array(ProtocolEntry),
    due_diligence: Type.Object({
      status: lit(DUE_DILIGENCE),
      notes: Nullable(Type.String()),
      screening: Nullable(Screening),
      screened_at: Nullable(Timestamp),
    }),
    source: Type.String({ description: 'api or import.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Counterparty' },
);
export type Counterparty = Static<typeof Counterparty>;

export const CounterpartiesQuery = Type.Object({
  ...PageQuery.properties,
  query: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or legal name, any case.' })),
  lei: Type.Optional(Type.String({ minLength: 20, maxLength: 20 })),
  domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
  travel_address: Type.Optional(Type.String({ minLength: 3, maxLength: 2000 })),
  protocol: Type.Optional(lit(COUNTERPARTY_PROTOCOLS)),
});
export type CounterpartiesQuery = Static<typeof CounterpartiesQuery>;

export const Settings = Type.Object(
  {
    object: Type.Literal('travel_rule_settings'),
    inbound_trp_enabled: Type.Boolean(),
    inbound_trp_url: Nullable(
      Type.String({ description: 'Where counterparties post TRP inquiries; its path secret identifies this environment.' }),
    ),
    travel_address: Nullable(Type.String({ description: 'The travel address of inbound_trp_url (https only).' })),
    vasp_name: Nullable(Type.String()),
    vasp_lei: Nullable(Type.String()),
    address_risk_actions: Type.Object({
      low: lit(ADDRESS_ACTIONS),
      medium: lit(ADDRESS_ACTIONS),
      high: lit(ADDRESS_ACTIONS),
      severe: lit(ADDRESS_ACTIONS),
    }),
  },
  { title: 'TravelRuleSettings' },
);
export const UpdateSettings = Type.Object(
  {
    inbound_trp_enabled: Type.Optional(Type.Boolean()),
    rotate_inbound_secret: Type.Optional(Type.Boolean({ description: 'A new inbound URL; the old one stops working.' })),
    vasp_name: Type.Optional(Text(300, 'Our VASP name (TRP /identity).')),
    vasp_lei: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{18}[0-9]{2}$' })),
    address_risk_actions: Type.Optional(AddressRiskActions),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSettings = Static<typeof UpdateSettings>;
