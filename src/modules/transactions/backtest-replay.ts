// The replay of a backtest: the rule set over stored transactions in time order with sliding windows
// (SlidingAggregates, the same values as the live path's aggregates). Pure and synchronous: it runs in a
// worker thread (backtest-worker.ts), fed a page of rows at a time by runBacktest, so a replay of a million
// transactions never holds the API's event loop.
import {
  compileRuleSet,
  evaluate,
  requiredAggregates,
  requiredContext,
  SlidingAggregates,
  type CompiledRuleSet,
  type Evaluation,
  type RuleSet as EngineRuleSet,
  type Rule as EngineRule,
  type TxRow,
} from '../../engines/rules/index.js';

/**
 * The context a replayed transaction has: what the stored row holds. Everything else (the subject's KYC
 * decision and risk band today, wallet screening, list membership, balances, metadata) cannot be known as
 * it was at the time, so it is evaluated at its default and reported in the result.
 */
const HISTORICAL_CONTEXT = [
  'tx.id',
  'tx.reference',
  'tx.occurred_at',
  'tx.hour',
  'tx.weekday',
  'tx.amount',
  'tx.amount_decimal',
  'tx.currency',
  'tx.direction',
  'tx.type',
  'tx.channel',
  'tx.country',
  'tx.account',
  'tx.wallet',
  'tx.device',
  'tx.ip',
  'subject.reference',
  'counterparty.reference',
  'counterparty.country',
];

/** Context paths read by `paths` that a backtest cannot supply (a whole-object read counts when any part is missing). */
export function defaultedInBacktest(paths: readonly string[]): string[] {
  return paths.filter((p) => !HISTORICAL_CONTEXT.some((s) => p === s || p.startsWith(`${s}.`))).sort();
}

function contextNote(defaulted: readonly string[], rules: { key: string; context_defaulted: string[] }[]): string | null {
  if (defaulted.length === 0) return null;
  const affected = rules.filter((r) => r.context_defaulted.length > 0).map((r) => r.key);
  return (
    `${defaulted.length} context field(s) cannot be known for historical transactions and were evaluated at their ` +
    `defaults ('' for text, 0 for numbers, false for flags, empty lists): ${defaulted.join(', ')}. ` +
    `Rules reading them (${affected.join(', ')}) may hit differently live than in this backtest.`
  );
}
const SAMPLES = 5;

interface RuleStats {
  rule_id: string;
  key: string;
  status: string;
  evaluated: number;
  hits: number;
  errors: number;
  sample_references: string[];
  context_defaulted: string[];
  true_positives: number;
  false_positives: number;
}

const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);

/** A stored transaction as the replay reads it. */
export type ReplayRow = TxRow & { label: boolean | null; reference: string };

export interface ReplayParams {
  from: string;
  to: string;
  direction: string;
}

/**
 * Every rule that is not disabled is evaluated as if active (so drafts and test rules can be measured). Rows
 * before `from` (the longest window's warm-up) only enter the windows. With labels (imports' label / is_sar):
 * precision and recall per rule and for the overall flag (status other than approved).
 */
export class BacktestReplay {
  readonly warmMs: number;
  private readonly c: CompiledRuleSet;
  private readonly windows: SlidingAggregates;
  private readonly stats: Map<string, RuleStats>;
  /** stats in the compiled rules' order. */
  private readonly ruleStats: RuleStats[];
  private readonly statuses: Record<string, number> = { approved: 0, review: 0, block_and_review: 0, declined: 0 };
  private readonly fromMs: number;
  private evaluated = 0;
  private labelled = 0;
  private positives = 0;
  private flaggedTp = 0;
  private flaggedFp = 0;
  private readonly started = Date.now();

  /**
   * Throws with the first compile error when the rule set does not compile. `observe` sees every evaluated
   * row's evaluation (the bench hashes them to show that a change to the engine keeps every outcome).
   */
  constructor(
    ruleset: EngineRuleSet,
    private readonly params: ReplayParams,
    private readonly observe?: (row: ReplayRow, e: Evaluation) => void,
  ) {
    const rules: EngineRule[] = ruleset.rules
      .filter((r) => r.status !== 'disabled')
      .map((r) => {
        const x: EngineRule = Object.assign({}, r, { status: 'active' as const });
        delete x.reviewed_by;
        return x;
      });
    const compiled = compileRuleSet(Object.assign({}, ruleset, { rules }));
    if (!compiled.ok) throw new Error(`the rule set does not compile: ${compiled.errors[0]!.field}: ${compiled.errors[0]!.message}`);
    const c = compiled.compiled;
    this.c = c;
    const decls = requiredAggregates(c);
    this.windows = new SlidingAggregates(decls);
    this.warmMs = Math.max(0, ...c.aggregates.filter((p) => decls.some((d) => d.key === p.key)).map((p) => p.windowMs));
    this.fromMs = Date.parse(params.from);
    this.stats = new Map(
      c.rules.map(({ rule, expression }) => [
        rule.id,
        {
          rule_id: rule.id,
          key: rule.key,
          status: ruleset.rules.find((r) => r.id === rule.id)!.status,
          evaluated: 0,
          hits: 0,
          errors: 0,
          sample_references: [],
          context_defaulted: defaultedInBacktest(expression.paths.filter((p) => !p.startsWith('agg.'))),
          true_positives: 0,
          false_positives: 0,
        },
      ]),
    );
    this.ruleStats = c.rules.map(({ rule }) => this.stats.get(rule.id)!);
  }

  /** The next rows in (occurred_at, id) order. */
  page(rows: readonly ReplayRow[]): void {
    const { c, ruleStats, statuses } = this;
    for (const row of rows) {
      const inRange = row.occurred_at >= this.fromMs && (this.params.direction === 'any' || row.direction === this.params.direction);
      if (inRange) {
        const agg = this.windows.values(row);
        // The row is the tx as it is (fields outside the context's Tx type are not read; a stored row has no
        // balance_before or balance_after, so balance_known is false).
        const e = evaluate(
          c,
          {
            tx: row as ReplayRow & Record<string, unknown>,
            subject: { reference: row.subject },
            counterparty: { reference: row.counterparty, country: row.country, balance_after: row.counterparty_balance_after },
            agg,
          },
          { valuesUsed: false },
        );
        this.evaluated++;
        this.observe?.(row, e);
        statuses[e.status] = (statuses[e.status] ?? 0) + 1;
        if (row.label !== null) this.labelled++;
        if (row.label === true) this.positives++;
        const flagged = e.status !== 'approved';
        if (flagged && row.label === true) this.flaggedTp++;
        if (flagged && row.label === false) this.flaggedFp++;
        // One outcome per compiled rule, in the rules' order (evaluate's contract).
        for (let i = 0; i < e.outcomes.length; i++) {
          const o = e.outcomes[i]!;
          const s = ruleStats[i]!;
          s.evaluated++;
          if (o.outcome === 'error') s.errors++;
          if (o.outcome !== 'hit') continue;
          s.hits++;
          if (s.sample_references.length < SAMPLES) s.sample_references.push(row.reference);
          if (row.label === true) s.true_positives++;
          if (row.label === false) s.false_positives++;
        }
      }
      this.windows.add(row);
    }
  }

  result() {
    const { evaluated, statuses, labelled, positives } = this;
    const withLabels = labelled > 0;
    const contextDefaulted = defaultedInBacktest(requiredContext(this.c));
    return {
      evaluated,
      statuses,
      labelled,
      positives,
      flagged: {
        count: evaluated - statuses.approved!,
        ...(withLabels
          ? { precision: ratio(this.flaggedTp, this.flaggedTp + this.flaggedFp), recall: ratio(this.flaggedTp, positives) }
          : {}),
      },
      rules: [...this.stats.values()].map((s) => ({
        rule_id: s.rule_id,
        key: s.key,
        status: s.status,
        evaluated: s.evaluated,
        hits: s.hits,
        errors: s.errors,
        sample_references: s.sample_references,
        context_defaulted: s.context_defaulted,
        ...(withLabels
          ? { precision: ratio(s.true_positives, s.true_positives + s.false_positives), recall: ratio(s.true_positives, positives) }
          : {}),
      })),
      context_defaulted: contextDefaulted,
      context_note: contextNote(contextDefaulted, [...this.stats.values()]),
      duration_ms: Date.now() - this.started,
    };
  }
}

export type BacktestResult = ReturnType<BacktestReplay['result']>;
