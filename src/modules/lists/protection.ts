import type { Sealer } from '../../platform/crypto.js';

const VALUE_PURPOSE = 'list-entry-value';
const INDEX_PURPOSE = 'list-entry-blind-index';

/** Kinds whose values are not personal data and stay in clear: list entity ids (public lists). */
export const CLEAR_KINDS: readonly string[] = ['screening_entity'];

type Tenant = { accountId: string; environment: string };

/**
 * The blind index of a normalised value: keyed by MASTER_KEY and bound to the tenant and kind, so equal
 * values match within a tenant and nothing can be correlated across tenants or guessed without the key.
 */
export function listValueIndex(sealer: Sealer, t: Tenant, kind: string, normalized: string): string {
  return sealer.blindIndex(INDEX_PURPOSE, `${t.accountId}\n${t.environment}\n${kind}\n${normalized}`);
}

/** The columns a value is stored in: sealed with its index, or in clear for a clear kind. */
export function protectValue(sealer: Sealer, t: Tenant, kind: string, value: string, normalized: string) {
  if (CLEAR_KINDS.includes(kind)) return { value, normalized_value: normalized, value_sealed: null, value_index: null };
  return {
    value: null,
    normalized_value: null,
    value_sealed: sealer.seal(VALUE_PURPOSE, JSON.stringify([value, normalized])),
    value_index: listValueIndex(sealer, t, kind, normalized),
  };
}

/** The value and its normalised form of a stored row, whichever way it is stored. */
export function openValue(
  sealer: Sealer,
  row: { value: string | null; normalized_value: string | null; value_sealed: string | null },
): { value: string; normalized: string } {
  if (row.value_sealed) {
    const [value, normalized] = JSON.parse(sealer.open(VALUE_PURPOSE, row.value_sealed)) as [string, string];
    return { value, normalized };
  }
  return { value: row.value ?? '', normalized: row.normalized_value ?? '' };
}
