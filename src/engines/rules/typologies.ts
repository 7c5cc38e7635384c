import type { AggregateDecl } from './aggregates.js';
import type { Rule, RuleSet } from './ruleset.js';

export interface Typology {
  key: string;
  /** What it catches. */
  description: string;
  /** Known weaknesses: say them before someone enables the rule. */
  weaknesses: string;
  rule: Rule;
  aggregates: AggregateDecl[];
}

const FATF_CALL_FOR_ACTION = '["KP", "IR", "MM"]';

function draft(
  key: string,
  name: string,
  expression: string,
  score: number,
  severity: Rule['severity'],
  typology: string,
  description: string,
  extra: Partial<Rule> = {},
): Rule {
  return {
    id: `rul_starter_${key}`,
    key,
    version: 1,
    name,
    description,
    expression,
    score,
    severity,
    typologies: [typology],
    status: 'draft',
    author: 'verity-starter-library',
    ...extra,
  };
}

function t(key: string, description: string, weaknesses: string, rule: Rule, aggregates: AggregateDecl[]): Typology {
  return { key, description, weaknesses, rule: Object.assign({}, rule, { description }), aggregates };
}

const sameCurrency = { field: 'currency', op: 'eq', value: { tx: 'currency' } } as const;

export const STARTER_TYPOLOGIES: readonly Typology[] = [
  t(
    'structuring_below_threshold',
    'Cash deposits kept just under a 10,000 reporting threshold: this one is 8,000–9,999.99 and there were at least two more in 7 days, or it lifts the last 24 h of sub-threshold cash deposits to 10,000 or more.',
    'Threshold and band are USD/EUR-style constants: adjust per currency and jurisdiction. Misses structuring spread over more than 7 days, over several subjects, or done with non-cash types.',
    draft(
      'structuring_below_threshold',
      'Structuring below a reporting threshold',
      'tx.direction == "in" && tx.type == "cash" && tx.amount < 10000.0 && ((tx.amount >= 8000.0 && agg.struct_cash_in_8k_10k_7d >= 2) || (agg.struct_cash_in_count_24h >= 1 && agg.struct_cash_in_sum_24h + tx.amount >= 10000.0))',
      40,
      'high',
      'structuring',
      '',
    ),
    [
      {
        key: 'struct_cash_in_8k_10k_7d',
        fn: 'count',
        window: '7d',
        group_by: 'subject',
        direction: 'in',
        filters: [{ field: 'type', op: 'eq', value: 'cash' }, { field: 'amount', op: 'between', value: ['8000', '9999.99'] }, sameCurrency],
      },
      {
        key: 'struct_cash_in_sum_24h',
        fn: 'sum',
        field: 'amount',
        window: '24h',
        group_by: 'subject',
        direction: 'in',
        filters: [
          { field: 'type', op: 'eq', value: 'cash' },
          { field: 'amount', op: 'lt', value: '10000' },
        ],
      },
      {
        key: 'struct_cash_in_count_24h',
        fn: 'count',
        window: '24h',
        group_by: 'subject',
        direction: 'in',
        filters: [{ field: 'type', op: 'eq', value: 'cash' }, { field: 'amount', op: 'lt', value: '10000' }, sameCurrency],
      },
    ],
  ),
  t(
    'fan_in_same_amount',
    'Fan-in: another sender already paid this subject exactly the same amount in the last 90 days (mules or scam victims told to send a fixed sum). Counts distinct other senders with an identical amount, not all senders: a plain distinct-sender count flags ordinary busy accounts (precision 0.01 on AMLSim).',
    'Exact equality is evaded by varying amounts by a cent; identical prices (rent, subscriptions, payroll) from different payers look the same, so exclude known merchant/payroll subjects or raise the count. The first payments of a fan-in are not flagged (nothing to compare with yet). Parameters were chosen on AMLSim data, whose fan-in patterns use one fixed amount.',
    draft(
      'fan_in_same_amount',
      'Fan-in of identical amounts',
      'tx.direction == "in" && agg.fan_in_same_amount_senders_90d >= 1',
      50,
      'high',
      'fan_in',
      '',
    ),
    [
      {
        key: 'fan_in_same_amount_senders_90d',
        fn: 'count_distinct',
        field: 'counterparty',
        window: '90d',
        group_by: 'subject',
        direction: 'in',
        filters: [
          { field: 'amount', op: 'eq', value: { tx: 'amount' } },
          { field: 'counterparty', op: 'ne', value: { tx: 'counterparty' } },
        ],
      },
    ],
  ),
  t(
    'fan_out',
    'Fan-out: this payment goes to a new recipient and the subject already paid at least 5 other distinct recipients in 24 hours (dispersal to mules).',
    'Legitimate payroll and marketplace payouts look identical: scope to individuals or exempt business subjects. Slow dispersal over days is missed.',
    draft(
      'fan_out',
      'Fan-out to many recipients',
      'tx.direction == "out" && subject.type != "business" && agg.fan_out_recipients_24h >= 5',
      30,
      'medium',
      'fan_out',
      '',
    ),
    [
      {
        key: 'fan_out_recipients_24h',
        fn: 'count_distinct',
        field: 'counterparty',
        window: '24h',
        group_by: 'subject',
        direction: 'out',
        filters: [{ field: 'counterparty', op: 'ne', value: { tx: 'counterparty' } }],
      },
    ],
  ),
  t(
    'rapid_pass_through',
    'Rapid pass-through: money in during the last 48 hours (at least 1,000) leaves again: this payment plus the other outgoing payments of those 48 hours reach 90 % of what came in.',
    'Salary paid straight into rent or savings looks the same; needs a minimum amount and is blind to pass-through via several accounts. Same-currency only.',
    draft(
      'rapid_pass_through',
      'Rapid pass-through (in then out within hours)',
      'tx.direction == "out" && agg.in_sum_48h >= 1000.0 && tx.amount + agg.out_sum_48h >= 0.9 * agg.in_sum_48h',
      40,
      'high',
      'pass_through',
      '',
    ),
    [
      { key: 'in_sum_48h', fn: 'sum', field: 'amount', window: '48h', group_by: 'subject', direction: 'in' },
      { key: 'out_sum_48h', fn: 'sum', field: 'amount', window: '48h', group_by: 'subject', direction: 'out' },
    ],
  ),
  t(
    'dormant_reactivation',
    'Dormant account reactivation: a relationship older than a year, no activity in the last 180 days, and now a payment of at least 1,000.',
    'Needs subject.relationship_days from the module; seasonal customers trigger it. An account taken over and first "warmed up" with small payments passes.',
    draft(
      'dormant_reactivation',
      'Dormant account reactivation',
      'subject.relationship_days >= 365 && agg.activity_count_180d == 0 && tx.amount >= 1000.0',
      30,
      'medium',
      'account_takeover',
      '',
    ),
    [{ key: 'activity_count_180d', fn: 'count', window: '180d', group_by: 'subject' }],
  ),
  t(
    'spike_vs_history',
    "Spike against the subject's own history: the outgoing amount is at least 4 population standard deviations above the subject's 90-day mean, given at least 10 prior outgoing payments.",
    'Z-scores assume roughly normal amounts; heavy-tailed spending (one yearly big purchase) fires. New subjects have no history and are never flagged. Same-currency only.',
    draft(
      'spike_vs_history',
      'Amount spike against own history (z-score)',
      'tx.direction == "out" && agg.out_count_90d >= 10 && agg.out_stddev_90d > 0.0 && (tx.amount - agg.out_avg_90d) / agg.out_stddev_90d >= 4.0',
      30,
      'medium',
      'anomaly',
      '',
    ),
    [
      { key: 'out_count_90d', fn: 'count', window: '90d', group_by: 'subject', direction: 'out', filters: [sameCurrency] },
      { key: 'out_avg_90d', fn: 'avg', field: 'amount', window: '90d', group_by: 'subject', direction: 'out' },
      { key: 'out_stddev_90d', fn: 'stddev', field: 'amount', window: '90d', group_by: 'subject', direction: 'out' },
    ],
  ),
  t(
    'high_risk_jurisdiction',
    `Counterparty, its bank or the transaction is in a FATF "call for action" jurisdiction (${FATF_CALL_FOR_ACTION} as of 2025).`,
    'The list is a constant in the expression: update it when FATF publishes (three times a year); the grey list is not included. Empty countries are not flagged.',
    draft(
      'high_risk_jurisdiction',
      'High-risk jurisdiction',
      `counterparty.country in ${FATF_CALL_FOR_ACTION} || counterparty.bank_country in ${FATF_CALL_FOR_ACTION} || tx.country in ${FATF_CALL_FOR_ACTION}`,
      60,
      'high',
      'jurisdiction',
      '',
    ),
    [],
  ),
  t(
    'round_amounts',
    'Round amounts: an outgoing payment of at least 5,000 that is a whole multiple of 1,000, after at least two other such payments in 30 days.',
    'Many honest payments are round (rent, loans, transfers between own accounts). Weak alone: meant to add score next to other rules.',
    draft(
      'round_amounts',
      'Repeated round amounts',
      'tx.direction == "out" && tx.amount >= 5000.0 && double(int(tx.amount)) == tx.amount && int(tx.amount) % 1000 == 0 && agg.round_out_count_30d >= 2',
      15,
      'low',
      'round_amounts',
      '',
    ),
    [
      {
        key: 'round_out_count_30d',
        fn: 'count',
        window: '30d',
        group_by: 'subject',
        direction: 'out',
        filters: [
          { field: 'amount', op: 'multiple_of', value: '1000' },
          { field: 'amount', op: 'gte', value: '5000' },
        ],
      },
    ],
  ),
  t(
    'new_counterparty_large_amount',
    'A payment of at least 5,000 to a counterparty this subject has not dealt with in 365 days.',
    'First payments to a new landlord or supplier fire; needs a stable counterparty reference (IBAN, wallet) from the module, otherwise every payment looks new.',
    draft(
      'new_counterparty_large_amount',
      'New counterparty with a large amount',
      'tx.direction == "out" && counterparty.reference != "" && agg.seen_counterparty_365d == 0 && tx.amount >= 5000.0',
      25,
      'medium',
      'new_counterparty',
      '',
    ),
    [{ key: 'seen_counterparty_365d', fn: 'count', window: '365d', group_by: ['subject', 'counterparty'] }],
  ),
  t(
    'paysim_transfer_cash_out',
    "The PaySim fraud pattern: a cash-out of exactly the amount of a transfer received in the last 24 hours that emptied the sender's balance (account takeover: victim drained by transfer, mule cashes out).",
    "Needs the sender's balance after the transfer (counterparty_balance_after on the history row), which only exists for transfers between the institution's own customers. Splitting the cash-out into two amounts evades it. In the public PaySim set the cash-out is reported not to come from the transfer's destination account; this rule assumes it does.",
    draft(
      'paysim_transfer_cash_out',
      'Transfer emptying a balance, then a cash-out of the same amount',
      'tx.direction == "out" && tx.type == "cash_out" && agg.emptying_transfer_in_same_amount_24h >= 1',
      60,
      'high',
      'account_takeover',
      '',
      { force_outcome: 'block_and_review' },
    ),
    [
      {
        key: 'emptying_transfer_in_same_amount_24h',
        fn: 'count',
        window: '24h',
        group_by: 'subject',
        direction: 'in',
        filters: [
          { field: 'type', op: 'eq', value: 'transfer' },
          { field: 'amount', op: 'eq', value: { tx: 'amount' } },
          { field: 'counterparty_balance_after', op: 'eq', value: '0' },
        ],
      },
    ],
  ),
  t(
    'sanctioned_counterparty',
    "Counterparty (or a wallet in the transaction) is sanctioned or on the block list: counterparty.screening is the counterparty name screened at transaction time against the active sanctions lists and the tenant's allow/block entries (or Verity's stored screening of the counterparty reference when riskier); it fires on a confirmed match, on a name scoring at least 0.95 against a sanctions entry, or on a block entry. wallet is the latest wallet screening of the transaction's addresses, lists the /v1/lists entries (counterparty reference as a subject entry, counterparty name, wallet addresses). values_used names the list entries (counterparty.screening.matches).",
    'A name alone: a counterparty sharing a sanctioned name (with no date of birth or identifier to tell them apart) fires, so expect reviews on common names; clear one with an allowlist subject entry for its reference or a screening_entity allowlist entry. Names scoring 0.8-0.95 (near misses) do not fire: route them to review with a separate rule on counterparty.screening.score if wanted. Without an active list in the environment, counterparty.screening.status is "unavailable" and only block entries fire.',
    draft(
      'sanctioned_counterparty',
      'Sanctioned or blocklisted counterparty',
      '((counterparty.screening.status == "match" || (counterparty.screening.score >= 0.95 && "sanctions" in counterparty.screening.datasets)) && !lists.counterparty_allowed) || counterparty.screening.blocked || lists.counterparty_blocked || wallet.sanctioned || lists.wallet_blocked',
      100,
      'critical',
      'sanctions',
      '',
      { force_outcome: 'block_and_review' },
    ),
    [],
  ),
  t(
    'high_risk_wallet_exposure',
    'A crypto transaction whose own or counterparty address was last screened at high or severe risk (direct or indirect exposure to sanctioned, stolen-funds, darknet, mixer or scam addresses), by the wallets module.',
    'Reads the latest stored wallet screening only: an address never screened does not fire (screen or monitor the addresses you care about), and a screening made before a list update is as old as it is.',
    draft(
      'high_risk_wallet_exposure',
      'High-risk wallet exposure',
      'wallet.screened && (wallet.risk == "high" || wallet.risk == "severe")',
      60,
      'high',
      'crypto_exposure',
      '',
      { force_outcome: 'review' },
    ),
    [],
  ),
  t(
    'unverified_customer_large_amount',
    'A large amount (5,000 or more) from a customer whose latest verification was not approved, is high risk, a PEP match, or who has been known for under 30 days.',
    'Needs the subject reference of transactions to be the one used in verifications; a customer verified outside Verity has no decision here and fires. The 5,000 amount is currency-blind.',
    draft(
      'unverified_customer_large_amount',
      'Large amount from an unverified, high-risk or new customer',
      'tx.amount >= 5000.0 && (subject.kyc_decision != "approved" || subject.risk_band == "high" || subject.pep || subject.relationship_days < 30)',
      30,
      'medium',
      'customer_risk',
      '',
    ),
    [],
  ),
];

/** All starter typologies as one draft rule set (rules draft; thresholds as suggested defaults). */
export function starterRuleSet(version = 1): RuleSet {
  return {
    version,
    thresholds: { review: 30, block_and_review: 60, decline: 100 },
    rules: STARTER_TYPOLOGIES.map((x) => x.rule),
    aggregates: STARTER_TYPOLOGIES.flatMap((x) => x.aggregates),
    change_note: 'Starter typology library (all rules draft).',
  };
}
