import type { RequestContext } from '../../platform/context.js';
import { AppError, conflict, invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { recordUsage } from '../../platform/usage.js';
import type { WriteBatcher } from '../../platform/write-batch.js';
import { batchingReader, flushWithNext, withNext } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import {
  amountProblem,
  compareDecimal,
  evaluate,
  neededAggregates,
  requiredContext,
  type Evaluation,
  type RuleContextInput,
  type TxRow,
  withAggregates,
} from '../../engines/rules/index.js';
import { raiseAlert, raiseAlerts } from '../cases/index.js';
import { subscribesTo } from '../webhooks/index.js';
import { activeRuleSet, lastActiveRuleSet, ruleRows } from '../rules/index.js';
import { computeTransactionAggregates } from './aggregates.js';
import { loadRuleContext, markUnscreened, type ScreenCounterparty } from './rule-context.js';
import { subjectKey, type KeyedQueue } from './subject-queue.js';
import { isReferenceTaken, subjectLockKey, transactionRows, type NewTransaction, type TransactionRow } from './repository.js';
import { toTransaction } from './present.js';
import type { CreateTransaction, Transaction } from './schemas.js';

/** How far ahead of the server's clock occurred_at may be (clock skew), not more. */
export const MAX_FUTURE_MS = 5 * 60_000;
/** A transaction_rule alert of one rule for one subject is raised at most once per this period. */
export const TRANSACTION_ALERT_COOLDOWN_S = 24 * 3600;
/** A rule_error alert of one rule is raised at most once per this period. */
export const RULE_ERROR_COOLDOWN_S = 3600;

export function counterpartyKey(c: CreateTransaction['counterparty']): string | null {
  return c?.reference ?? c?.account ?? c?.wallet ?? c?.name ?? null;
}

/** Same transaction? (a repeat of a reference with other facts is a conflict, not a repeat). */
function sameFacts(row: TransactionRow, input: CreateTransaction): boolean {
  return (
    row.occurred_at.getTime() === new Date(input.occurred_at).getTime() &&
    compareDecimal(String(row.amount), input.amount) === 0 &&
    row.currency === input.currency &&
    row.direction === input.direction &&
    row.subject_reference === input.subject.reference
  );
}

function validate(input: CreateTransaction): Date {
  const problem = amountProblem(input.amount, input.currency);
  if (problem) throw invalid(problem.includes('ISO 4217') ? 'currency' : 'amount', problem);
  const at = new Date(input.occurred_at);
  if (!Number.isFinite(at.getTime())) throw invalid('occurred_at', 'occurred_at is not a valid date-time.');
  if (at.getTime() > Date.now() + MAX_FUTURE_MS) throw invalid('occurred_at', 'occurred_at is in the future (more than 5 minutes ahead).');
  if (at.getTime() < Date.UTC(1970, 0, 1)) throw invalid('occurred_at', 'occurred_at is before 1970.');
  return at;
}

/**
 * POST /v1/transactions. The rule set and the context other modules hold (subject, counterparty, wallet,
 * lists) are read first, without a transaction; then, queued per subject and in one database transaction: the
 * declared aggregates the active rules read are computed (excluding this transaction), the rules are
 * evaluated (test rules in shadow; snoozes for the subject honoured; an erroring rule never blocks),
 * the transaction is stored with its evaluation and added to the daily rollup, alerts are raised
 * (transaction_rule per hit rule when the status is review or worse; rule_error per failing rule), the
 * transaction.evaluated event (only when an enabled webhook destination of the environment subscribes to it)
 * and the usage row are written. A repeat of the reference answers the stored
 * evaluation (200); the same reference with other facts is 409.
 */
export async function createTransaction({
  ctx,
  sealer,
  queue,
  queueLimit,
  writer,
  screen,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  /** The process's per-subject queue (the SUBJECT_QUEUE resource). */
  queue: KeyedQueue;
  /** The process's group commit of write steps (the WRITE_BATCHER resource). */
  writer: WriteBatcher;
  /** At most this many of one subject's transactions wait in the queue; the next is 429 (TRANSACTIONS_SUBJECT_QUEUE_LIMIT). */
  queueLimit: number;
  /** Screens the counterparty name when a rule reads counterparty.screening (none: stored screenings only). */
  screen?: ScreenCounterparty;
  input: CreateTransaction;
}): Promise<{ created: boolean; transaction: Transaction }> {
  const at = validate(input);
  const key = subjectKey(ctx, input.subject.reference);
  // Counted from here, refused before any read: back-pressure is cheap only if the refusal is. The key stays free for the retry.
  const done = queue.admit(key, queueLimit);
  if (!done) {
    throw new AppError(
      'rate_limited',
      `${queueLimit} transactions of this subject are already waiting to be evaluated (one subject's transactions are evaluated one at a time); retry after the time in Retry-After.`,
      { headers: { 'retry-after': '1' } },
    );
  }
  try {
    return await evaluateAdmitted({ ctx, sealer, queue, writer, key, screen, input, at });
  } finally {
    done();
  }
}

/** createTransaction once admitted to the subject's queue: the reads, then the subject's turn. */
async function evaluateAdmitted({
  ctx,
  sealer,
  queue,
  writer,
  key,
  screen,
  input,
  at,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  queue: KeyedQueue;
  writer: WriteBatcher;
  key: string;
  screen?: ScreenCounterparty;
  input: CreateTransaction;
  at: Date;
}): Promise<{ created: boolean; transaction: Transaction }> {
  // Reads started together go to the database as one batch (one round trip each stage). They are short indexed
  // reads: on PostgreSQL they go on a pipelined connection, with the batches of other requests made in the same turn.
  const reader = batchingReader(ctx.db, { short: true });
  // What other modules know (KYC, business, screenings, wallets, lists) and the counterparty name's
  // screening: read before the write transaction (no lock held while the screening worker answers), and
  // only what the rules read. The evaluation that used them is stored in the one write transaction.
  // The rule set this process last found active says what to read: those reads start now, in the same batch
  // as the repeat check and the version read, and are used only if the version read finds that same rule set.
  const guess = lastActiveRuleSet(ctx);
  const early = guess ? loadRuleContext(reader, ctx, sealer, input, requiredContext(guess), at, screen) : null;
  early?.catch(() => undefined); // unused when the guess was wrong or the request is a repeat: its failure is nobody's
  // transaction.evaluated is emitted only where subscribed (one event per transaction is the outbox's largest
  // write where nobody listens): whether an enabled destination takes it travels in the same batch.
  const [existing, compiled, notify] = await Promise.all([
    transactionRows.idByReference(reader, ctx, input.reference),
    activeRuleSet(reader, ctx),
    subscribesTo(reader, ctx, 'transaction.evaluated'),
  ]);
  if (existing) return repeat((await transactionRows.get(ctx.db, ctx, existing))!, input);
  const known = !compiled
    ? {}
    : early && guess === compiled
      ? await early
      : await loadRuleContext(reader, ctx, sealer, input, requiredContext(compiled), at, screen);

  const id = newId('transaction');
  const cpKey = counterpartyKey(input.counterparty);
  const wallet = input.crypto?.wallet ?? null;
  const txRow: TxRow = {
    id,
    occurred_at: at.getTime(),
    amount: input.amount,
    currency: input.currency,
    direction: input.direction,
    subject: input.subject.reference,
    type: input.type ?? 'transfer',
  };
  if (input.channel) txRow.channel = input.channel;
  const country = input.counterparty?.bank_country ?? input.counterparty?.country;
  if (country) txRow.country = country;
  if (cpKey) txRow.counterparty = cpKey;
  if (input.account) txRow.account = input.account;
  if (wallet) txRow.wallet = wallet;
  if (input.device) txRow.device = input.device;
  if (input.ip) txRow.ip = input.ip;
  if (input.counterparty?.balance_after) txRow.counterparty_balance_after = input.counterparty.balance_after;

  // The rule context but the aggregates; rules a condition on it already decides need none of theirs read.
  const ruleInput: RuleContextInput = {
    tx: {
      id,
      reference: input.reference,
      occurred_at: at.getTime(),
      amount: input.amount,
      currency: input.currency,
      direction: input.direction,
      type: txRow.type,
      channel: input.channel,
      country,
      account: input.account,
      device: input.device,
      ip: input.ip,
      wallet: wallet ?? undefined,
      chain: input.crypto?.chain,
      balance_before: input.balance_before,
      balance_after: input.balance_after,
      metadata: input.metadata ?? {},
    },
    ...known,
  };
  const needed = compiled ? neededAggregates(compiled, ruleInput) : null;

  // A subject's evaluations run one at a time (its aggregates are read, then its row written). They wait
  // in an in-process queue, holding no pool connection, so a burst on one subject never starves the pool
  // for other subjects; the advisory lock inside the short write transaction serialises across processes.
  // The write step goes through the process's group commit: under load, several subjects' write steps share one
  // database transaction and one COMMIT (WriteBatcher), each taking its subject's lock first, all in hash order.
  const running = queue.run(key, () =>
    writer.run<{ created: boolean; transaction: Transaction }>({
      ctx,
      locks: [subjectLockKey(ctx, input.subject.reference)],
      // A subject with more of its transactions waiting behind this one (a burst, a heavy customer) is written at once,
      // alone: its queue is a chain of write steps, and a batch would add a wait for a slot and for its slowest member.
      alone: queue.depth(key) > 1,
      response: (r) => r.transaction,
      fn: async (tx) => {
        // The lock, the repeat re-check and the snoozes travel with the aggregate read: one round trip.
        const ahead = withNext(tx);
        const nowRead = transactionRows.lockSubject(ahead, ctx, input.subject.reference);
        const againRead = transactionRows.idByReference(ahead, ctx, input.reference);
        const snoozedRead = compiled ? ruleRows.snoozedFor(ahead, ctx, input.subject.reference, new Date()) : null;
        let agg: Awaited<ReturnType<typeof computeTransactionAggregates>> = {};
        if (needed) agg = await computeTransactionAggregates(tx, ctx, needed.plans, txRow);
        await flushWithNext(tx); // when no aggregate read was sent
        const again = await againRead;
        if (again) return repeat((await transactionRows.get(tx, ctx, again))!, input);

        let evaluation: Evaluation | null = null;
        if (compiled) {
          const snoozed = (await snoozedRead) ?? new Set<string>();
          evaluation = evaluate(compiled, withAggregates(ruleInput, agg), { snoozed, decided: needed?.decided });
          markUnscreened(evaluation, compiled, known);
        }

        const alerts: { id: string; kind: string; severity: string; case_id: string; deduplicated: boolean }[] = [];
        if (evaluation && compiled) {
          const byId = new Map(compiled.rules.map((r) => [r.rule.id, r.rule]));
          if (evaluation.status !== 'approved') {
            // The hit rules' alerts together: their repeats within the cooldown are counted in one statement.
            const ev = evaluation;
            const hits = evaluation.outcomes.filter((x) => x.outcome === 'hit');
            const raised = await raiseAlerts(
              tx,
              ctx,
              hits.map((o) => {
                const rule = byId.get(o.rule_id)!;
                return {
                  kind: 'transaction_rule',
                  severity: rule.severity,
                  subjectType: 'customer',
                  subjectId: input.subject.reference,
                  subjectReference: input.subject.reference,
                  title: `${rule.name} (${ev.status})`,
                  details: {
                    transaction_id: id,
                    reference: input.reference,
                    status: ev.status,
                    score: ev.score,
                    ruleset_version: ev.ruleset_version,
                    rule_id: rule.id,
                    rule_key: rule.key,
                    values_used: o.values_used,
                  },
                  dedupeKey: rule.id,
                  cooldownSeconds: TRANSACTION_ALERT_COOLDOWN_S,
                };
              }),
            );
            for (const r of raised)
              alerts.push({
                id: r.alert.id,
                kind: r.alert.kind,
                severity: r.alert.severity,
                case_id: r.caseId,
                deduplicated: r.deduplicated,
              });
          }
          for (const o of evaluation.outcomes.filter((x) => x.outcome === 'error')) {
            const rule = byId.get(o.rule_id)!;
            const r = await raiseAlert(tx, ctx, {
              kind: 'rule_error',
              severity: 'medium',
              subjectType: 'rule',
              subjectId: rule.id,
              subjectReference: null,
              title: `Rule ${rule.key} failed to evaluate: ${o.error?.code ?? 'error'}`,
              details: {
                transaction_id: id,
                rule_id: rule.id,
                rule_key: rule.key,
                ruleset_version: evaluation.ruleset_version,
                error: o.error ?? null,
              },
              cooldownSeconds: RULE_ERROR_COOLDOWN_S,
            });
            alerts.push({
              id: r.alert.id,
              kind: r.alert.kind,
              severity: r.alert.severity,
              case_id: r.caseId,
              deduplicated: r.deduplicated,
            });
          }
        }

        const row: NewTransaction = {
          id,
          reference: input.reference,
          occurred_at: at,
          amount: input.amount,
          currency: input.currency,
          direction: input.direction,
          type: txRow.type!,
          channel: input.channel ?? null,
          subject_reference: input.subject.reference,
          subject: {
            ...(input.subject.type ? { type: input.subject.type } : {}),
            ...(input.subject.country ? { country: input.subject.country } : {}),
          },
          counterparty_key: cpKey,
          account: input.account ?? null,
          wallet,
          device: input.device ?? null,
          ip: input.ip ?? null,
          country: country ?? null,
          balance_after: input.counterparty?.balance_after ?? null,
          counterparty: input.counterparty ?? null,
          crypto: input.crypto ?? null,
          metadata: input.metadata ?? {},
          source: 'api',
          label_suspicious: null,
          status: evaluation?.status ?? 'approved',
          score: String(evaluation?.score ?? 0),
          ruleset_version: evaluation?.ruleset_version ?? null,
          evaluation: { rules: evaluation?.outcomes ?? [], alerts },
        };
        // Sent with COMMIT: a concurrent insert of the reference fails the whole transaction (referenceTaken).
        const stored = await transactionRows.insert(tx, ctx, row, await nowRead);
        await transactionRows.addToRollup(tx, ctx, {
          subject: row.subject_reference,
          occurredAt: at,
          direction: row.direction,
          currency: row.currency,
          amount: row.amount,
        });
        const transaction = toTransaction(stored);
        if (notify)
          await enqueueEvent(tx, ctx, {
            type: 'transaction.evaluated',
            resourceType: 'transaction',
            resourceId: id,
            data: {
              id,
              reference: transaction.reference,
              subject_reference: transaction.subject.reference,
              status: transaction.status,
              score: transaction.score,
              ruleset_version: transaction.ruleset_version,
              hits: transaction.rules.filter((r) => r.outcome === 'hit').map((r) => r.key),
              alert_ids: alerts.filter((a) => !a.deduplicated).map((a) => a.id),
            },
          });
        await recordUsage(tx, ctx, 'transactions', 'evaluation', id);
        return { created: true, transaction };
      },
    }),
  );
  return running.catch(referenceTaken);
}

/** A concurrent insert of the same reference (the unique violation at COMMIT) is the conflict it always was. */
function referenceTaken(err: unknown): never {
  if (isReferenceTaken(err)) throw conflict('A transaction with this reference is being stored; retry.', 'reference');
  throw err;
}

function repeat(row: TransactionRow, input: CreateTransaction): { created: boolean; transaction: Transaction } {
  if (!sameFacts(row, input))
    throw conflict(
      'A transaction with this reference exists with other facts (occurred_at, amount, currency, direction or subject): a reference names one transaction.',
      'reference',
    );
  return { created: false, transaction: toTransaction(row) };
}
