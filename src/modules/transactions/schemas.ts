import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../platform/schemas.js';
import { PageQuery } from '../../platform/pagination.js';

const lit = <T extends string>(xs: readonly T[], o: object = {}) =>
  Type.Union(
    xs.map((x) => Type.Literal(x)),
    o,
  );
export const STATUSES = ['approved', 'review', 'block_and_review', 'declined'] as const;
export const OUTCOMES = ['hit', 'no_hit', 'shadow_hit', 'snoozed', 'error'] as const;
const Money = (description: string) => Type.String({ pattern: '^(0|[1-9][0-9]{0,29})(\\.[0-9]{1,18})?$', maxLength: 49, description });
const Code = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' });
const Text = (max = 200) => Type.String({ minLength: 1, maxLength: max });
const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, upper case.' });

export const Counterparty = Type.Object(
  {
    reference: Type.Optional(Text()),
    name: Type.Optional(Text()),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Account number or IBAN.' })),
    bank_country: Type.Optional(Country),
    country: Type.Optional(Country),
    wallet: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    balance_after: Type.Optional(Money("The counterparty account's balance after the transaction, when known.")),
  },
  {
    additionalProperties: false,
    description: 'Who is on the other side. Grouping (agg group_by counterparty) uses reference, else account, else wallet, else name.',
  },
);
export const Crypto = Type.Object(
  {
    chain: Type.String({ minLength: 1, maxLength: 32 }),
    asset: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    tx_hash: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    wallet: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "The subject's own address." })),
  },
  { additionalProperties: false },
);
const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'Up to 50 string keys and values; rules read them as tx.metadata.',
});

export const CreateTransaction = Type.Object(
  {
    reference: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Your id of the transaction, unique per environment: a repeat answers the stored evaluation.',
    }),
    occurred_at: Type.String({ format: 'date-time', description: 'When it happened (at most 5 minutes in the future).' }),
    amount: Money('Decimal string, no exponent, e.g. "1250.00"; at most the currency\'s minor digits.'),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'Active ISO 4217 code.' }),
    direction: lit(['in', 'out'] as const, { description: 'Seen from the subject: in (money received) or out (sent).' }),
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        pattern: '^[a-z][a-z0-9_]*$',
        description: 'transfer (default), cash, card, crypto, cash_out…',
      }),
    ),
    channel: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z][a-z0-9_]*$' })),
    subject: Type.Object(
      {
        reference: Type.String({ minLength: 1, maxLength: 200, description: 'Your id of the customer (as in verifications).' }),
        type: Type.Optional(lit(['individual', 'business'] as const)),
        country: Type.Optional(Country),
      },
      { additionalProperties: false },
    ),
    account: Type.Optional(Code),
    device: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    ip: Type.Optional(Type.String({ minLength: 2, maxLength: 45, pattern: '^[0-9A-Fa-f:.]+$', description: 'IPv4 or IPv6 address.' })),
    balance_before: Type.Optional(Money("The subject's balance before, when known.")),
    balance_after: Type.Optional(Money("The subject's balance after, when known.")),
    counterparty: Type.Optional(Counterparty),
    crypto: Type.Optional(Crypto),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateTransaction = Static<typeof CreateTransaction>;

export const RuleResult = Type.Object({
  rule_id: Type.String(),
  key: Type.String(),
  version: Type.Integer(),
  outcome: lit(OUTCOMES, {
    description:
      'hit (counted), no_hit, shadow_hit (a test rule hit: recorded, not counted), snoozed (not counted; would_hit says whether it would have), error (never blocks; raises a rule_error alert).',
  }),
  score: Type.Number({ description: 'What the rule added to the score (0 unless hit).' }),
  values_used: Type.Record(Type.String(), Type.Unknown(), { description: 'Every context value and aggregate the expression read.' }),
  would_hit: Type.Optional(Type.Boolean()),
  forced_outcome: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});

export const Transaction = Type.Object(
  {
    id: Type.String({ description: 'txn_…' }),
    object: Type.Literal('transaction'),
    reference: Type.String(),
    occurred_at: Timestamp,
    amount: Type.String(),
    currency: Type.String(),
    direction: Type.String(),
    type: Type.String(),
    channel: Type.Union([Type.String(), Type.Null()]),
    subject: Type.Object({ reference: Type.String(), type: Type.Optional(Type.String()), country: Type.Optional(Type.String()) }),
    account: Type.Union([Type.String(), Type.Null()]),
    device: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    counterparty: Type.Union([Counterparty, Type.Null()]),
    crypto: Type.Union([Crypto, Type.Null()]),
    metadata: Type.Record(Type.String(), Type.String()),
    source: lit(['api', 'import'] as const, { description: 'api: evaluated when submitted; import: history loaded without evaluation.' }),
    status: Type.Union([lit(STATUSES), Type.Null()], {
      description:
        'approved (below the review threshold); review (let it through, a person looks); block_and_review (hold it until a person decides); declined (refuse it). The highest of the score threshold and any forced outcome of a hit. Null for imported history.',
    }),
    score: Type.Union([Type.Number(), Type.Null()], { description: 'Sum of the scores of active rules that hit.' }),
    ruleset_version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The rule set version it was evaluated with (null: none published yet).',
    }),
    rules: Type.Array(RuleResult, { description: 'Every active and test rule, with its outcome and the values it used.' }),
    alerts: Type.Array(
      Type.Object({
        id: Type.String(),
        kind: Type.String(),
        severity: Type.String(),
        case_id: Type.String(),
        deduplicated: Type.Boolean({ description: 'A repeat within the cooldown: counted on an earlier alert, not raised again.' }),
      }),
    ),
    created_at: Timestamp,
  },
  { title: 'Transaction' },
);
export type Transaction = Static<typeof Transaction>;

export const TransactionsQuery = Type.Object({
  ...PageQuery.properties,
  subject_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(lit(STATUSES)),
  direction: Type.Optional(lit(['in', 'out'] as const)),
  source: Type.Optional(lit(['api', 'import'] as const)),
  occurred_gte: Type.Optional(Type.String({ format: 'date-time' })),
  occurred_lt: Type.Optional(Type.String({ format: 'date-time' })),
});
export type TransactionsQuery = Static<typeof TransactionsQuery>;

export const ImportTransactions = Type.Object(
  {
    format: lit(['csv', 'jsonl'] as const, {
      description: 'csv (header row) or jsonl (one POST /v1/transactions body per line, plus an optional boolean label).',
    }),
    preset: Type.Optional(
      lit(['verity', 'amlsim'] as const, {
        description:
          "verity (default): the request's fields as columns, nested ones joined with _ (subject_reference, counterparty_name…) and an optional label column. amlsim: AMLSim's transactions.csv (tran_id, orig_acct, bene_acct, tx_type, base_amt, tran_timestamp, is_sar as the label); each transfer becomes two rows, <tran_id>:out for the originator and <tran_id>:in for the beneficiary.",
      }),
    ),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'amlsim preset: the currency of base_amt (default USD).' })),
    data: Type.String({ minLength: 1, description: 'The file content (at most 100,000 transactions per import).' }),
  },
  { additionalProperties: false },
);
export type ImportTransactions = Static<typeof ImportTransactions>;

export const TransactionImport = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('transaction_import'),
    format: Type.String(),
    preset: Type.String(),
    received: Type.Integer(),
    imported: Type.Integer(),
    skipped_existing: Type.Integer({ description: 'Rows whose reference was already stored (an import can be re-run).' }),
    labelled: Type.Integer({ description: 'Rows carrying a label (is_sar, label): backtests report precision and recall on them.' }),
  },
  { title: 'TransactionImport' },
);
export type TransactionImport = Static<typeof TransactionImport>;

export const CreateBacktest = Type.Object(
  {
    ruleset: Type.Optional(
      Type.Union([Type.Literal('draft'), Type.Integer({ minimum: 1, maximum: 1_000_000 })], {
        description: 'draft (default) or a published version.',
      }),
    ),
    from: Type.String({ format: 'date-time', description: 'Transactions that occurred at or after this moment are evaluated.' }),
    to: Type.String({ format: 'date-time', description: '…and before this one.' }),
    direction: Type.Optional(
      lit(['in', 'out', 'any'] as const, { description: 'Evaluate only this direction (history of both warms the windows).' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateBacktest = Static<typeof CreateBacktest>;

const Ratio = Type.Union([Type.Number(), Type.Null()]);
export const Backtest = Type.Object(
  {
    id: Type.String({ description: 'bkt_…' }),
    object: Type.Literal('rule_backtest'),
    state: lit(['queued', 'running', 'succeeded', 'failed'] as const),
    ruleset: Type.String({ description: 'draft or v<N>: the snapshot taken when the backtest was created.' }),
    from: Timestamp,
    to: Timestamp,
    direction: Type.String(),
    result: Type.Union([
      Type.Object({
        evaluated: Type.Integer(),
        statuses: Type.Record(Type.String(), Type.Integer()),
        labelled: Type.Integer(),
        positives: Type.Integer({ description: 'Evaluated transactions labelled suspicious.' }),
        flagged: Type.Object({ count: Type.Integer(), precision: Type.Optional(Ratio), recall: Type.Optional(Ratio) }),
        rules: Type.Array(
          Type.Object({
            rule_id: Type.String(),
            key: Type.String(),
            status: Type.String(),
            evaluated: Type.Integer(),
            hits: Type.Integer(),
            errors: Type.Integer(),
            sample_references: Type.Array(Type.String()),
            context_defaulted: Type.Optional(
              Type.Array(Type.String(), { description: 'Context fields this rule reads that were defaulted in the replay.' }),
            ),
            precision: Type.Optional(Ratio),
            recall: Type.Optional(Ratio),
          }),
        ),
        context_defaulted: Type.Optional(
          Type.Array(Type.String(), {
            description:
              'Context paths the rules read that cannot be known for historical transactions (subject KYC band, wallet screening, lists, balances, metadata…) and were evaluated at their defaults.',
          }),
        ),
        context_note: Type.Optional(
          Type.Union([Type.String(), Type.Null()], {
            description: 'A sentence for analysts naming the defaulted fields and the rules reading them; null when none.',
          }),
        ),
        duration_ms: Type.Integer(),
      }),
      Type.Null(),
    ]),
    error: Type.Union([Type.String(), Type.Null()]),
    created_by: Type.String(),
    created_at: Timestamp,
    finished_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'RuleBacktest' },
);
export type Backtest = Static<typeof Backtest>;
