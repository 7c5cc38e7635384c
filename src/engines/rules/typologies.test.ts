import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TxRow } from './aggregates.js';
import { computeAggregates } from './aggregate-compute.js';
import type { RuleContextInput } from './context.js';
import { evaluate } from './evaluate.js';
import { compileRuleSet } from './ruleset.js';
import { STARTER_TYPOLOGIES, starterRuleSet } from './typologies.js';

const H = 3_600_000;
const D = 24 * H;
const T = Date.UTC(2024, 5, 1, 12);
let n = 0;
const r = (o: Partial<TxRow>): TxRow => ({
  id: `h${++n}`,
  occurred_at: T - H,
  amount: '100',
  currency: 'USD',
  direction: 'in',
  subject: 'sub',
  ...o,
});

type Case = { tx: Partial<TxRow>; history: Partial<TxRow>[]; ctx?: Omit<RuleContextInput, 'tx' | 'agg'> };

/** Fires the one typology on a transaction after the given history; returns its outcome. */
function run(key: string, c: Case): string {
  const t = STARTER_TYPOLOGIES.find((x) => x.key === key)!;
  const compiled = compileRuleSet({
    version: 1,
    thresholds: { review: 1, block_and_review: 1000, decline: 2000 },
    rules: [{ ...t.rule, status: 'active' }],
    aggregates: t.aggregates,
  });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  const tx = r({ id: 'cur', occurred_at: T, ...c.tx });
  const agg = computeAggregates(t.aggregates, tx, c.history.map(r));
  const out = evaluate(compiled.compiled, { ...c.ctx, tx: { ...tx, occurred_at: tx.occurred_at }, agg });
  return out.outcomes[0]!.outcome;
}

const cases: Record<string, { pos: Case; neg: Case }> = {
  structuring_below_threshold: {
    pos: {
      tx: { amount: '9500', type: 'cash' },
      history: [
        { amount: '9800', type: 'cash', occurred_at: T - 2 * D },
        { amount: '9100', type: 'cash', occurred_at: T - 4 * D },
      ],
    },
    neg: {
      tx: { amount: '9500', type: 'cash' },
      history: [
        { amount: '9800', type: 'cash', occurred_at: T - 2 * D },
        { amount: '9100', type: 'cash', occurred_at: T - 8 * D },
      ],
    },
  },
  fan_in_same_amount: {
    pos: { tx: { amount: '234.08', counterparty: 'a' }, history: [{ amount: '234.08', counterparty: 'b', occurred_at: T - 7 * D }] },
    neg: {
      tx: { amount: '234.08', counterparty: 'a' },
      history: [
        { amount: '234.08', counterparty: 'a', occurred_at: T - 7 * D },
        { amount: '234.09', counterparty: 'c' },
      ],
    },
  },
  fan_out: {
    pos: {
      tx: { direction: 'out', counterparty: 'z' },
      history: ['a', 'b', 'c', 'd', 'e'].map((c) => ({ direction: 'out' as const, counterparty: c })),
    },
    neg: {
      tx: { direction: 'out', counterparty: 'z' },
      history: ['a', 'b', 'c', 'd', 'z'].map((c) => ({ direction: 'out' as const, counterparty: c })),
    },
  },
  rapid_pass_through: {
    pos: {
      tx: { direction: 'out', amount: '4000' },
      history: [
        { amount: '5000', occurred_at: T - 5 * H },
        { direction: 'out', amount: '600', occurred_at: T - 2 * H },
      ],
    },
    neg: {
      tx: { direction: 'out', amount: '4000' },
      history: [
        { amount: '5000', occurred_at: T - 3 * D },
        { direction: 'out', amount: '600', occurred_at: T - 2 * H },
      ],
    },
  },
  dormant_reactivation: {
    pos: { tx: { amount: '2500' }, history: [{ occurred_at: T - 200 * D }], ctx: { subject: { relationship_days: 900 } } },
    neg: { tx: { amount: '2500' }, history: [{ occurred_at: T - 100 * D }], ctx: { subject: { relationship_days: 900 } } },
  },
  spike_vs_history: {
    pos: {
      tx: { direction: 'out', amount: '5000' },
      history: Array.from({ length: 12 }, (_, i) => ({
        direction: 'out' as const,
        amount: String(90 + i * 2),
        occurred_at: T - (i + 1) * D,
      })),
    },
    neg: {
      tx: { direction: 'out', amount: '120' },
      history: Array.from({ length: 12 }, (_, i) => ({
        direction: 'out' as const,
        amount: String(90 + i * 2),
        occurred_at: T - (i + 1) * D,
      })),
    },
  },
  high_risk_jurisdiction: {
    pos: { tx: {}, history: [], ctx: { counterparty: { country: 'KP' } } },
    neg: { tx: {}, history: [], ctx: { counterparty: { country: 'FR', bank_country: 'FR' } } },
  },
  round_amounts: {
    pos: {
      tx: { direction: 'out', amount: '7000.00' },
      history: [
        { direction: 'out', amount: '5000' },
        { direction: 'out', amount: '9000', occurred_at: T - 10 * D },
      ],
    },
    neg: {
      tx: { direction: 'out', amount: '7000.50' },
      history: [
        { direction: 'out', amount: '5000' },
        { direction: 'out', amount: '9000', occurred_at: T - 10 * D },
      ],
    },
  },
  new_counterparty_large_amount: {
    pos: {
      tx: { direction: 'out', amount: '8000', counterparty: 'new' },
      history: [{ direction: 'out', counterparty: 'old' }],
      ctx: { counterparty: { reference: 'new' } },
    },
    neg: {
      tx: { direction: 'out', amount: '8000', counterparty: 'old' },
      history: [{ direction: 'out', counterparty: 'old', occurred_at: T - 200 * D }],
      ctx: { counterparty: { reference: 'old' } },
    },
  },
  paysim_transfer_cash_out: {
    pos: {
      tx: { direction: 'out', type: 'cash_out', amount: '181.00' },
      history: [{ type: 'transfer', amount: '181', counterparty: 'victim', counterparty_balance_after: '0.00' }],
    },
    neg: {
      tx: { direction: 'out', type: 'cash_out', amount: '181.00' },
      history: [{ type: 'transfer', amount: '181', counterparty: 'victim', counterparty_balance_after: '20.00' }],
    },
  },
  sanctioned_counterparty: {
    pos: { tx: {}, history: [], ctx: { counterparty: { screening: { status: 'match', score: 0.97 } } } },
    neg: { tx: {}, history: [], ctx: { counterparty: { screening: { status: 'potential_match', score: 0.8 } } } },
  },
  high_risk_wallet_exposure: {
    pos: { tx: {}, history: [], ctx: { wallet: { screened: true, risk: 'high', score: 0.7 } } },
    neg: { tx: {}, history: [], ctx: { wallet: { screened: true, risk: 'medium', score: 0.3 } } },
  },
  unverified_customer_large_amount: {
    pos: { tx: { amount: '6000' }, history: [], ctx: { subject: { kyc_decision: 'referred', relationship_days: 400 } } },
    neg: { tx: { amount: '6000' }, history: [], ctx: { subject: { kyc_decision: 'approved', risk_band: 'low', relationship_days: 400 } } },
  },
};

test('the starter library compiles as one draft rule set and covers every typology here', () => {
  const c = compileRuleSet(starterRuleSet());
  assert.ok(c.ok, JSON.stringify(!c.ok && c.errors));
  assert.equal(c.compiled.rules.length, 0); // all drafts: nothing runs until a user enables it
  assert.deepEqual(STARTER_TYPOLOGIES.map((t) => t.key).sort(), Object.keys(cases).sort());
  for (const t of STARTER_TYPOLOGIES) assert.ok(t.description.length > 40 && t.weaknesses.length > 40, t.key);
});

for (const [key, c] of Object.entries(cases)) {
  test(`typology ${key}: fires on the positive case, not on the negative`, () => {
    assert.equal(run(key, c.pos), 'hit');
    assert.equal(run(key, c.neg), 'no_hit');
  });
}

test('typology sanctioned_counterparty: a name-only screening fires from 0.95 on a sanctions entry, not below, not on a PEP entry', () => {
  const screening = (score: number, datasets: string[]) => ({
    tx: {},
    history: [],
    ctx: { counterparty: { screening: { status: 'potential_match', score, datasets, matches: [`x "X" (ofac_sdn, ${score})`] } } },
  });
  assert.equal(run('sanctioned_counterparty', screening(0.99, ['sanctions'])), 'hit');
  assert.equal(run('sanctioned_counterparty', screening(0.95, ['sanctions'])), 'hit');
  assert.equal(run('sanctioned_counterparty', screening(0.91, ['sanctions'])), 'no_hit');
  assert.equal(run('sanctioned_counterparty', screening(1, ['pep'])), 'no_hit');
  assert.equal(run('sanctioned_counterparty', screening(0.5, ['blocklist'])), 'no_hit');
  assert.equal(
    run('sanctioned_counterparty', { tx: {}, history: [], ctx: { counterparty: { screening: { status: 'match', blocked: true } } } }),
    'hit',
  );
});
