import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import { iso } from '../../../platform/schemas.js';
import type { Correction } from './schemas.js';
import type { SubjectFields } from '../../checks/index.js';
import type { Tenant } from '../repository.js';
import { correctionRepo } from './repository.js';

/** Sealer purpose of `session_corrections.changes_sealed` (personal data). */
export const CORRECTION_PURPOSE = 'session-correction';

type Changes = Record<string, { before: unknown; after: unknown }>;
interface SealedChanges {
  salt: string;
  changes: Changes;
}

/**
 * Salted SHA-256 of one value, for the audit row: SHA-256(salt ‖ "\n" ‖ JSON value). The salt is
 * sealed with the values, so while they exist anyone holding them can prove the audit row names
 * exactly these values, and once they are deleted the hashes cannot be matched to a guess (a date
 * of birth or a sex alone would be trivial to find from an unsalted hash).
 */
export function valueHash(salt: string, value: unknown): string {
  return createHash('sha256')
    .update(salt)
    .update('\n')
    .update(JSON.stringify(value ?? null))
    .digest('hex');
}

/** The fields that actually change, with before and after values. */
export function diffFields(before: SubjectFields, patch: Partial<SubjectFields>): Changes {
  const out: Changes = {};
  for (const [k, v] of Object.entries(patch) as [keyof SubjectFields, unknown][]) {
    if (v === undefined) continue;
    if (JSON.stringify(before[k] ?? null) !== JSON.stringify(v)) out[k] = { before: before[k] ?? null, after: v };
  }
  return out;
}

export const corrections = {
  /** Stores one correction; returns the salted hashes of its values for the audit row. */
  async insert(
    tx: Queryable,
    t: Tenant,
    sealer: Sealer,
    c: { id: string; sessionId: string; actor: string; reason: string; changes: Changes; rescreening: Correction['rescreening'] },
  ) {
    const salt = randomBytes(16).toString('hex');
    const sealed: SealedChanges = { salt, changes: c.changes };
    await correctionRepo.insert(tx, t, {
      id: c.id,
      sessionId: c.sessionId,
      actor: c.actor,
      reason: c.reason,
      fields: Object.keys(c.changes),
      changesSealed: sealer.seal(CORRECTION_PURPOSE, JSON.stringify(sealed)),
      rescreening: c.rescreening,
    });
    const hashes = (side: 'before' | 'after') =>
      Object.fromEntries(Object.entries(c.changes).map(([k, v]) => [k, valueHash(salt, v[side])]));
    return { before_sha256: hashes('before'), after_sha256: hashes('after') };
  },

  /** A session's corrections, oldest first, with their values while the session still has them. */
  async ofSession(db: Queryable, t: Tenant, sealer: Sealer, sessionId: string): Promise<Correction[]> {
    const rows = await correctionRepo.ofSession(db, t, sessionId);
    return rows.map((r) => ({
      id: r.id,
      fields: r.fields,
      reason: r.reason,
      actor: r.actor,
      at: iso(r.created_at)!,
      changes: r.changes_sealed ? (JSON.parse(sealer.open(CORRECTION_PURPOSE, r.changes_sealed)) as SealedChanges).changes : null,
      rescreening: r.rescreening ?? null,
    }));
  },
};
