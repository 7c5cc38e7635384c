import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { CATEGORIES, LEVELS } from '../../engines/wallets/index.js';

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
const Level = Type.Union(
  LEVELS.map((l) => Type.Literal(l)),
  { description: 'low, medium, high or severe (from the policy table, GET /v1/wallets/policy).' },
);
const CategoryName = Type.Union(
  CATEGORIES.map((c) => Type.Literal(c)),
  { description: `One of ${CATEGORIES.join(', ')}.` },
);

const AddressField = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'The wallet address as written. EVM addresses compare case-insensitively (the EIP-55 checksum is reported, not required); base58, bech32 and CashAddr compare exactly (bech32 in one case).',
});
const ChainField = Type.String({
  minLength: 1,
  maxLength: 32,
  description:
    'Chain id (bitcoin, ethereum, tron, litecoin, bitcoin_cash, xrp, monero, zcash, dash …), an OFAC currency code (XBT, ETH, TRX …) or a token (USDT, USDC: its host chains). Omitted: inferred from the address.',
});
const SubjectReference = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Your identifier of the customer the wallet belongs to.',
});

export const ScreenWalletBody = Type.Object(
  {
    address: AddressField,
    chain: Type.Optional(ChainField),
    subject_reference: Type.Optional(SubjectReference),
    hops: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4,
        default: 2,
        description: 'Hops of indirect exposure over known transfers (0: direct only). Default 2.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScreenWalletBody = Static<typeof ScreenWalletBody>;

const Source = Type.Object({
  list: Type.String({ description: 'ofac_sdn, opensanctions, … (a list snapshot source), blocklist, or attribution:<name>.' }),
  version: Type.String({ description: 'The list version: the snapshot id, the block list entry id, or the attribution import id.' }),
  entity_id: Nullable(Type.String()),
  entity_name: Nullable(Type.String()),
  program: Nullable(Type.String()),
  listed_chain: Type.String({ description: 'The chain the address is listed on (an EVM account listed on Ethereum is found on BSC too).' }),
  address: Type.String({ description: 'The listed address, normalised.' }),
  note: Nullable(Type.String({ description: 'Set when the list named a chain on which the address is invalid.' })),
});

const CategoryFinding = Type.Object({
  category: CategoryName,
  exposure: Type.Union([Type.Literal('direct'), Type.Literal('indirect')]),
  direction: Type.Union([Type.Literal('sent'), Type.Literal('received'), Type.Literal('both')], {
    description: 'direct: both; indirect: received (funds came from the category) or sent (funds went to it).',
  }),
  share: Type.Number({ description: 'Share of the value in that direction traced to the category (1 for a direct hit).' }),
  hops: Type.Integer({ description: '0 for a direct hit; otherwise the fewest transfers between the address and the category.' }),
  value: Nullable(Type.String({ description: 'share × the total value in that direction, decimal string (indirect only).' })),
  unit: Nullable(Type.String({ description: '<chain>/<asset> of the value (indirect only).' })),
  level: Type.Union([Level, Type.Null()], { description: 'The level the policy gives this finding; null: no policy row applies.' }),
  sources: Type.Array(Source),
});

export const WalletScreening = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('wallet_screening'),
    address: Type.String({ description: 'The address as given.' }),
    chain: Type.String({ description: 'The chain the address was screened on (given or inferred).' }),
    candidate_chains: Type.Array(Type.String(), { description: 'Every chain the address is valid on (within the chain given).' }),
    kind: Type.String({ description: 'p2pkh, p2sh, segwit, cashaddr-p2pkh, account, monero-standard …' }),
    normalized_address: Type.String(),
    valid: Type.Boolean({ description: 'Always true: an invalid address is a 400 naming the field.' }),
    checksum: Type.Union([Type.Literal('valid'), Type.Literal('absent'), Type.Literal('invalid')], {
      description: 'EVM: the EIP-55 state (absent: all one case). Other chains: valid (their checksum is mandatory and was verified).',
    }),
    risk: Type.Object({
      score: Type.Integer({ minimum: 0, maximum: 100 }),
      level: Level,
      reasons: Type.Array(Type.String(), { description: 'wallet_direct:<category> / wallet_indirect:<category>.' }),
    }),
    categories: Type.Array(CategoryFinding),
    list_versions: Type.Record(Type.String(), Type.String(), { description: 'Every list consulted and its version.' }),
    subject_reference: Nullable(Type.String()),
    monitor_id: Nullable(Type.String()),
    trigger: Type.Union([Type.Literal('api'), Type.Literal('monitor'), Type.Literal('list_update'), Type.Literal('transfers')], {
      description: 'What ran the screening: an API call, a monitor registration, or a re-screen after a list update or new transfers.',
    }),
    created_at: Timestamp,
  },
  { title: 'WalletScreening' },
);
export type WalletScreening = Static<typeof WalletScreening>;

export const MonitorWalletBody = Type.Object(
  {
    address: AddressField,
    chain: Type.Optional(ChainField),
    subject_reference: SubjectReference,
  },
  { additionalProperties: false },
);
export type MonitorWalletBody = Static<typeof MonitorWalletBody>;

export const MONITOR_STATES = ['active', 'paused', 'stopped'] as const;

export const WalletMonitor = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('wallet_monitor'),
    subject_reference: Type.String(),
    address: Type.String(),
    chain: Type.String(),
    normalized_address: Type.String(),
    state: Type.Union(
      MONITOR_STATES.map((s) => Type.Literal(s)),
      { description: 'active (re-screened), paused (kept, not re-screened) or stopped (final).' },
    ),
    risk: Type.Object({ level: Level, categories: Type.Array(Type.String()) }),
    last_screening_id: Type.String({ description: 'The latest screening (GET /v1/wallets/screenings/{id}).' }),
    rescreened_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'WalletMonitor' },
);
export type WalletMonitor = Static<typeof WalletMonitor>;

export const MonitorsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  state: Type.Optional(Type.Union(MONITOR_STATES.map((s) => Type.Literal(s)))),
  subject_reference: Type.Optional(Type.String({ maxLength: 200 })),
});

const OnError = Type.Optional(
  Type.Union([Type.Literal('reject'), Type.Literal('skip')], {
    default: 'reject',
    description:
      'reject (default): any bad line rejects the whole file (400 naming the lines). skip: good lines are imported, bad ones reported.',
  }),
);
const Content = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 20_000_000,
    description: `${what}, as CSV with a header line or as JSON lines. Lines starting with # are comments.`,
  });

export const ImportAttributionsBody = Type.Object(
  {
    list: Type.String({
      pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
      description: 'Name of the attribution list (matches name it attribution:<list>); imports add to it.',
    }),
    content: Content('Columns chain, address, category, entity (name), entity_id, source (optional)'),
    on_error: OnError,
  },
  { additionalProperties: false },
);
export type ImportAttributionsBody = Static<typeof ImportAttributionsBody>;

export const ImportTransfersBody = Type.Object(
  {
    content: Content('Columns chain, tx_hash, from, to, amount (decimal, asset units) and optionally asset'),
    on_error: OnError,
  },
  { additionalProperties: false },
);
export type ImportTransfersBody = Static<typeof ImportTransfersBody>;

export const WalletImport = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('wallet_import'),
    kind: Type.Union([Type.Literal('attributions'), Type.Literal('transfers')]),
    list: Nullable(Type.String()),
    lines: Type.Integer({ description: 'Data lines read (header and comments excluded).' }),
    imported: Type.Integer(),
    rejected: Type.Integer(),
    errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() }), { description: 'The first 100 bad lines.' }),
    created_at: Timestamp,
  },
  { title: 'WalletImport' },
);
export type WalletImport = Static<typeof WalletImport>;

const PolicyRowSchema = Type.Object(
  {
    category: CategoryName,
    exposure: Type.Union([Type.Literal('direct'), Type.Literal('indirect')]),
    min_share: Type.Number({ minimum: 0, maximum: 1, description: 'The row applies at or above this share (a direct hit has share 1).' }),
    level: Level,
  },
  { additionalProperties: false },
);

export const WalletPolicy = Type.Object(
  {
    object: Type.Literal('wallet_policy'),
    version: Type.Integer({ description: '0: the built-in default table.' }),
    rows: Type.Array(PolicyRowSchema),
    updated_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'WalletPolicy' },
);
export type WalletPolicy = Static<typeof WalletPolicy>;

export const PutPolicyBody = Type.Object(
  { rows: Type.Array(PolicyRowSchema, { minItems: 1, maxItems: 500, description: 'The whole table; the highest matching level wins.' }) },
  { additionalProperties: false },
);
export type PutPolicyBody = Static<typeof PutPolicyBody>;
