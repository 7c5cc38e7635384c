import { iso } from '../../platform/schemas.js';
import type { TransactionRow } from './repository.js';
import type { Transaction } from './schemas.js';

/** Amounts as stored (numeric → text: no float ever). */
export function toTransaction(r: TransactionRow): Transaction {
  return {
    id: r.id,
    object: 'transaction',
    reference: r.reference,
    occurred_at: iso(r.occurred_at)!,
    amount: String(r.amount),
    currency: r.currency,
    direction: r.direction,
    type: r.type,
    channel: r.channel,
    subject: { reference: r.subject_reference, ...(r.subject ?? {}) },
    account: r.account,
    device: r.device,
    ip: r.ip,
    counterparty: r.counterparty,
    crypto: r.crypto as Transaction['crypto'],
    metadata: r.metadata ?? {},
    source: r.source,
    status: r.status as Transaction['status'],
    score: r.score === null ? null : Number(r.score),
    ruleset_version: r.ruleset_version,
    rules: (r.evaluation?.rules ?? []) as Transaction['rules'],
    alerts: (r.evaluation?.alerts ?? []) as Transaction['alerts'],
    created_at: iso(r.created_at)!,
  };
}
