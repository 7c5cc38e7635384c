import type { Db } from '../../platform/db.js';
import type { Environment, RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob, type JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import {
  compileRuleSet,
  evaluate,
  requiredAggregates,
  requiredContext,
  SlidingAggregates,
  type RuleSet as EngineRuleSet,
  type Rule as EngineRule,
} from '../../engines/rules/index.js';
import { effectiveDraft, principalOf, ruleRows } from '../rules/index.js';
import { backtestRows, transactionRows, type BacktestRow } from './repository.js';
import type { Backtest, CreateBacktest } from './schemas.js';

const PAGE = 10_000;

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

export function toBacktest(b: BacktestRow): Backtest {
  return {
    id: b.id,
    object: 'rule_backtest',
    state: b.state,
    ruleset: b.ruleset_label,
    from: b.params.from,
    to: b.params.to,
    direction: b.params.direction,
    result: (b.result as Backtest['result']) ?? null,
    error: b.error,
    created_by: b.created_by,
    created_at: iso(b.created_at)!,
    finished_at: iso(b.finished_at),
  };
}

/** POST /v1/rules/backtest: snapshots the draft (default) or a version and queues the replay. */
export async function createBacktest({ ctx, input }: { ctx: RequestContext; input: CreateBacktest }): Promise<Backtest> {
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (!(to.getTime() > from.getTime())) throw invalid('to', 'to must be after from.');
  const which = input.ruleset ?? 'draft';
  let doc: EngineRuleSet;
  if (which === 'draft') doc = (await effectiveDraft(ctx.db, ctx)).document;
  else {
    const v = await ruleRows.version(ctx.db, ctx, which);
    if (!v) throw notFound('rule set version', 'ruleset');
    doc = v.document;
  }
  const id = newId('backtest');
  return withTransaction(ctx, async (tx) => {
    const row = await backtestRows.insert(tx, ctx, {
      id,
      ruleset: doc,
      ruleset_label: which === 'draft' ? 'draft' : `v${which}`,
      params: { from: from.toISOString(), to: to.toISOString(), direction: input.direction ?? 'any' },
      created_by: principalOf(ctx),
    });
    await enqueueJob(tx, QUEUES.rulesBacktest, { backtest_id: id });
    await emitAudit(tx, ctx, {
      action: 'rules.backtest_started',
      resourceType: 'rule_backtest',
      resourceId: id,
      metadata: { ruleset: row.ruleset_label, ...row.params },
    });
    return toBacktest(row);
  });
}

export async function getBacktest({ ctx, id }: { ctx: RequestContext; id: string }): Promise<Backtest> {
  const row = await backtestRows.get(ctx.db, ctx, id);
  if (!row) throw notFound('backtest', 'id');
  return toBacktest(row);
}

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

/**
 * Replays the snapshot over the stored transactions in [from, to) in time order with sliding windows
 * (SlidingAggregates, the same values as the live path's aggregates): rows of the longest window before
 * `from` warm the windows without being evaluated. Every rule that is not disabled is evaluated as if active
 * (so drafts and test rules can be measured). With labels (imports' label / is_sar): precision and recall
 * per rule and for the overall flag (status other than approved).
 */
export async function runBacktest(db: Db, id: string): Promise<void> {
  const b = await backtestRows.byId(db, id);
  if (!b || b.state === 'succeeded' || b.state === 'failed') return;
  await backtestRows.setState(db, id, 'running');
  const rules: EngineRule[] = b.ruleset.rules
    .filter((r) => r.status !== 'disabled')
    .map((r) => {
      const x: EngineRule = { ...r, status: 'active' };
      delete x.reviewed_by;
      return x;
    });
  const compiled = compileRuleSet({ ...b.ruleset, rules });
  if (!compiled.ok) {
    await backtestRows.setState(
      db,
      id,
      'failed',
      null,
      `the rule set does not compile: ${compiled.errors[0]!.field}: ${compiled.errors[0]!.message}`,
    );
    return;
  }
  const c = compiled.compiled;
  const decls = requiredAggregates(c);
  const windows = new SlidingAggregates(decls);
  const warm = Math.max(0, ...c.aggregates.filter((p) => decls.some((d) => d.key === p.key)).map((p) => p.windowMs));
  const t = { accountId: b.account_id, environment: b.environment as Environment };
  const fromMs = Date.parse(b.params.from);
  const toMs = Date.parse(b.params.to);
  const stats = new Map<string, RuleStats>(
    c.rules.map(({ rule, expression }) => [
      rule.id,
      {
        rule_id: rule.id,
        key: rule.key,
        status: b.ruleset.rules.find((r) => r.id === rule.id)!.status,
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
  const statuses: Record<string, number> = { approved: 0, review: 0, block_and_review: 0, declined: 0 };
  let evaluated = 0;
  let labelled = 0;
  let positives = 0;
  let flaggedTp = 0;
  let flaggedFp = 0;
  const started = Date.now();
  const pageAfter = (after: { ms: number; id: string } | null) => {
    const p = transactionRows.historyPage(db, t, { fromMs: fromMs - warm, toMs, after, limit: PAGE });
    p.catch(() => undefined); // a read failing while a page is replayed surfaces at its await, not as an unhandled rejection
    return p;
  };
  let next = pageAfter(null);
  for (;;) {
    const page = await next;
    // The next page is read while this one is replayed (the database and the evaluation overlap).
    const last = page[page.length - 1];
    if (page.length === PAGE && last) next = pageAfter({ ms: last.occurred_at, id: last.id });
    for (const row of page) {
      const inRange = row.occurred_at >= fromMs && (b.params.direction === 'any' || row.direction === b.params.direction);
      if (inRange) {
        const agg = windows.values(row);
        const e = evaluate(c, {
          tx: { ...row, reference: row.reference, occurred_at: row.occurred_at, balance_after: undefined },
          subject: { reference: row.subject },
          counterparty: { reference: row.counterparty, country: row.country, balance_after: row.counterparty_balance_after },
          agg,
        });
        evaluated++;
        statuses[e.status] = (statuses[e.status] ?? 0) + 1;
        if (row.label !== null) labelled++;
        if (row.label === true) positives++;
        const flagged = e.status !== 'approved';
        if (flagged && row.label === true) flaggedTp++;
        if (flagged && row.label === false) flaggedFp++;
        for (const o of e.outcomes) {
          const s = stats.get(o.rule_id)!;
          s.evaluated++;
          if (o.outcome === 'error') s.errors++;
          if (o.outcome !== 'hit') continue;
          s.hits++;
          if (s.sample_references.length < SAMPLES) s.sample_references.push(row.reference);
          if (row.label === true) s.true_positives++;
          if (row.label === false) s.false_positives++;
        }
      }
      windows.add(row);
    }
    if (page.length < PAGE) break;
  }
  const withLabels = labelled > 0;
  const contextDefaulted = defaultedInBacktest(requiredContext(c));
  const result = {
    evaluated,
    statuses,
    labelled,
    positives,
    flagged: {
      count: evaluated - statuses.approved!,
      ...(withLabels ? { precision: ratio(flaggedTp, flaggedTp + flaggedFp), recall: ratio(flaggedTp, positives) } : {}),
    },
    rules: [...stats.values()].map((s) => ({
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
    context_note: contextNote(contextDefaulted, [...stats.values()]),
    duration_ms: Date.now() - started,
  };
  await backtestRows.setState(db, id, 'succeeded', result);
}

export function backtestJobHandlers(db: Db): Record<string, JobHandler> {
  return {
    [QUEUES.rulesBacktest]: async (job) => {
      try {
        await runBacktest(db, String(job.payload.backtest_id));
      } catch (e) {
        await backtestRows.setState(db, String(job.payload.backtest_id), 'failed', null, (e as Error).message.slice(0, 500));
      }
    },
  };
}
