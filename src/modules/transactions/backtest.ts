import type { Db } from '../../platform/db.js';
import type { Environment, RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueJob, type JobHandler } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import type { RuleSet as EngineRuleSet } from '../../engines/rules/index.js';
import { createWorkerPool, workerFileUrl } from '../../platform/worker-pool.js';
import type { BacktestResult } from './backtest-replay.js';
import type { BacktestTask, BacktestTaskResult } from './backtest-worker.js';
import { effectiveDraft, principalOf, ruleRows } from '../rules/index.js';
import { backtestRows, transactionRows, type BacktestRow } from './repository.js';
import type { Backtest, CreateBacktest } from './schemas.js';

const PAGE = 10_000;

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

/** The replay worker's young generation (V8 makes its semi-spaces a third of it each: 64 MB). */
const YOUNG_GENERATION_MB = 192;

/** How long one page of the replay may take in the worker before the backtest fails. */
const PAGE_TIMEOUT_MS = 10 * 60_000;

/**
 * Replays the snapshot over the stored transactions in [from, to) in time order (BacktestReplay, in a worker
 * thread started for this backtest): this thread reads a page while the worker replays the one before, so
 * the event loop only moves rows. Rows of the longest window before `from` warm the windows without being
 * evaluated.
 */
export async function runBacktest(db: Db, id: string): Promise<void> {
  const b = await backtestRows.byId(db, id);
  if (!b || b.state === 'succeeded' || b.state === 'failed') return;
  await backtestRows.setState(db, id, 'running');
  const pool = createWorkerPool<BacktestTask, BacktestTaskResult>({
    file: workerFileUrl(import.meta.url, './backtest-worker.js'),
    name: 'backtest',
    size: 1,
    taskTimeoutMs: PAGE_TIMEOUT_MS,
    maxConsecutiveCrashes: 0,
    // A replay allocates per evaluation and keeps its windows: with V8's default young generation the scavenges
    // copied the windows' new entries again and again (kyt-replay at 300,000 rows: 12–20 % less CPU with 64 MB
    // semi-spaces; docs/performance.md). About 100 MB more memory while a backtest runs.
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  try {
    let warmMs: number;
    try {
      ({ warmMs } = (await pool.run({ kind: 'start', ruleset: b.ruleset, params: b.params })) as { warmMs: number });
    } catch (e) {
      await backtestRows.setState(db, id, 'failed', null, (e as Error).message.slice(0, 500));
      return;
    }
    const t = { accountId: b.account_id, environment: b.environment as Environment };
    const fromMs = Date.parse(b.params.from);
    const toMs = Date.parse(b.params.to);
    const read = (after: { ms: number; id: string } | null) =>
      transactionRows.historyPage(db, t, { fromMs: fromMs - warmMs, toMs, after, limit: PAGE });
    let page = await read(null);
    for (;;) {
      const last = page[page.length - 1];
      const next = page.length === PAGE && last ? read({ ms: last.occurred_at, id: last.id }) : null;
      // A failed read while the worker replays still ends the backtest (as failed), never unhandled.
      next?.catch(() => undefined);
      await pool.run({ kind: 'page', rows: page });
      if (!next) break;
      page = await next;
    }
    const result = (await pool.run({ kind: 'finish' })) as BacktestResult;
    await backtestRows.setState(db, id, 'succeeded', result);
  } finally {
    await pool.close();
  }
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
