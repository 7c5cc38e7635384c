import { withNext, type Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { announceCaseChange } from './close-case.js';
import { alertRows, caseRows, toAlert, type AlertRow } from './repository.js';
import type { Severity } from './severity.js';
import type { Alert } from './schemas.js';

/** Repeats of one alert within this many seconds are counted on it rather than raised again, unless told otherwise. */
export const DEFAULT_ALERT_COOLDOWN_SECONDS = 24 * 3600;

export interface RaiseAlertInput {
  /** transaction_rule, rule_error, wallet_risk, business_ownership, business_screening, travel_rule (ALERT_KINDS). */
  kind: string;
  severity: Severity;
  /** What the alert is about; the case is per subject: customer, rule, wallet, business, travel_rule_message… */
  subjectType: string;
  subjectId: string;
  subjectReference?: string | null;
  title: string;
  details?: Record<string, unknown>;
  /** Distinguishes alerts of one kind and subject (e.g. the rule id): repeats of one key are deduplicated. */
  dedupeKey?: string;
  /** Seconds within which a repeat is deduplicated (default 24 h; 0: never deduplicate). */
  cooldownSeconds?: number;
}

export interface RaisedAlert {
  alert: Alert;
  caseId: string;
  deduplicated: boolean;
}

// The subject locks each transaction already holds (transaction-scoped advisory locks: taking one again
// is a round trip for nothing when one transaction raises several alerts of one subject).
const heldLocks = new WeakMap<Queryable, Set<string>>();

/**
 * Takes the subject's lock once per transaction. Where the transaction can, the lock travels in the same message as
 * the statement sent next (the dedupe UPDATE or the insert): one round trip less, and still a statement of its own
 * before that one, whose snapshot is taken once the lock is held. Await the answer after that next statement.
 */
function lockOnce(tx: Queryable, ctx: RequestContext, subjectType: string, subjectId: string): Promise<void> {
  const key = JSON.stringify([ctx.accountId, ctx.environment, subjectType, subjectId]);
  const held = heldLocks.get(tx) ?? new Set<string>();
  if (held.has(key)) return Promise.resolve();
  held.add(key); // a failing lock fails the whole transaction: nothing is held after it either way
  heldLocks.set(tx, held);
  return alertRows.lockSubject(withNext(tx), ctx, subjectType, subjectId);
}

/**
 * Raises an alert of any pillar in the caller's transaction. A repeat of (kind, subject, dedupe key)
 * within the cooldown is counted on the earlier alert (occurrences, last_seen_at) and nothing else
 * happens. Otherwise the alert is attached to the subject's open alert_review case (whose severity
 * rises to the alert's, with a case.updated event) or opens one (audit case.opened); the alert gets
 * an audit row and an alert.created event. The subject's alerts are serialised by a transaction
 * lock, so two concurrent raises never open two cases or two alerts.
 *
 * Statements: the lock, the dedupe (one UPDATE … RETURNING), then the case and the alert in one
 * statement; the audit rows and the alert.created event travel with COMMIT when the transaction
 * defers writes. A repeat costs 2 statements, a new alert 3 (+2 when it raises an open case's severity);
 * the lock is taken once per subject and transaction, and travels with the dedupe (or, without a cooldown, with
 * the insert) where the transaction can send statements together: a repeat is one round trip, a new alert two.
 */
export async function raiseAlert(tx: Queryable, ctx: RequestContext, input: RaiseAlertInput): Promise<RaisedAlert> {
  return (await raiseAlerts(tx, ctx, [input]))[0]!;
}

/**
 * raiseAlert for several alerts of one kind and subject with one cooldown (e.g. the rules one transaction hit): the
 * repeats among them are counted by statements sent in one message with the subject's lock, so a transaction whose
 * hits all repeat costs one round trip whatever their number; the new ones are raised one by one, in the order given.
 * Results in the order of `inputs`.
 */
export async function raiseAlerts(tx: Queryable, ctx: RequestContext, inputs: readonly RaiseAlertInput[]): Promise<RaisedAlert[]> {
  const first = inputs[0];
  if (!first) return [];
  const cooldown = first.cooldownSeconds ?? DEFAULT_ALERT_COOLDOWN_SECONDS;
  const same = (i: RaiseAlertInput) =>
    i.kind === first.kind &&
    i.subjectType === first.subjectType &&
    i.subjectId === first.subjectId &&
    (i.cooldownSeconds ?? DEFAULT_ALERT_COOLDOWN_SECONDS) === cooldown;
  if (!inputs.every(same)) throw new Error('raiseAlerts: every alert must share kind, subject and cooldown');
  const locked = lockOnce(tx, ctx, first.subjectType, first.subjectId);
  // Awaited after the next statement; where the transaction cannot send them together the lock runs at once, and if
  // it fails the next statement fails too and throws first: that rejection must not go unhandled.
  locked.catch(() => undefined);

  const repeats = new Map<string, AlertRow>();
  if (cooldown > 0) {
    // One dedupe statement per key, all in the lock's message (one round trip): each keeps the single-row plan of
    // touchRecent, which a multi-key UPDATE lost under a generic plan (it hash-joined a scan of every alert).
    const ahead = withNext(tx);
    const since = new Date(Date.now() - cooldown * 1000);
    const touched = inputs.map((i, n) =>
      alertRows.touchRecent(n < inputs.length - 1 ? ahead : tx, ctx, {
        kind: first.kind,
        subjectType: first.subjectType,
        subjectId: first.subjectId,
        dedupeKey: i.dedupeKey ?? '',
        since,
      }),
    );
    for (const r of await Promise.all(touched)) if (r) repeats.set(r.dedupe_key, r);
    await locked;
  }
  const out: RaisedAlert[] = [];
  for (const input of inputs) {
    const row = repeats.get(input.dedupeKey ?? '');
    out.push(row ? { alert: toAlert(row), caseId: row.case_id, deduplicated: true } : await raiseNew(tx, ctx, input, locked));
  }
  return out;
}

/** A new alert (no repeat within the cooldown), under the subject's lock (`locked`). */
async function raiseNew(tx: Queryable, ctx: RequestContext, input: RaiseAlertInput, locked: Promise<void>): Promise<RaisedAlert> {
  const dedupeKey = input.dedupeKey ?? '';
  const {
    alert: row,
    opened,
    raisedFrom,
  } = await alertRows.insertWithCase(tx, ctx, {
    id: newId('caseAlert'),
    kind: input.kind,
    severity: input.severity,
    subjectType: input.subjectType,
    subjectId: input.subjectId,
    subjectReference: input.subjectReference ?? null,
    title: input.title,
    details: input.details ?? {},
    dedupeKey,
    newCaseId: newId('case'),
  });
  await locked;
  const caseId = row.case_id;
  if (opened) {
    await emitAudit(tx, ctx, {
      action: 'case.opened',
      resourceType: 'case',
      resourceId: caseId,
      metadata: { kind: 'alert_review', subject_type: input.subjectType, subject_id: input.subjectId, severity: input.severity },
    });
  } else if (raisedFrom) {
    const after = (await caseRows.get(tx, ctx, caseId))!;
    await announceCaseChange(tx, ctx, { ...after, severity: raisedFrom }, after, { event: 'alert_raised', alert_kind: input.kind });
  }
  await emitAudit(tx, ctx, {
    action: 'alert.created',
    resourceType: 'alert',
    resourceId: row.id,
    metadata: { kind: row.kind, severity: row.severity, subject_type: row.subject_type, subject_id: row.subject_id, case_id: caseId },
  });
  const alert = toAlert(row);
  // The new alert's only event in this transaction: it may travel with COMMIT.
  await enqueueEvent(tx, ctx, { type: 'alert.created', resourceType: 'alert', resourceId: row.id, data: { ...alert }, deferred: true });
  return { alert, caseId, deduplicated: false };
}
