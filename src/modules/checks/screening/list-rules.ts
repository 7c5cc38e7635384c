import type { Queryable } from '../../../platform/db.js';
import type { RequestContext } from '../../../platform/context.js';
import { listValueIndex, normalizeListValue, openValue, screeningListEntries } from '../../lists/index.js';
import type { Sealer } from '../../../platform/crypto.js';
import type { ScreeningHit } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface ListRules {
  /** Entity ids this subject was cleared of ("not this person"). */
  allow: Set<string>;
  /** Entity ids blocked for this subject: reported as a match whatever the score. */
  block: Set<string>;
  /** Name and document-number block entries the query hits, as hits of their own. */
  blockHits: ScreeningHit[];
  entryIds: string[];
}

/**
 * The tenant's allowlist and blocklist entries that apply to one screening:
 * - allowlist `screening_entity` for this subject_reference → the entity's hit is suppressed;
 * - blocklist `screening_entity` for this subject_reference → that entity is a match (an entry
 *   without subject_reference is ignored here: it would make every subject match that entity);
 * - blocklist `name` equal (normalised) to the query name or an alias, and `document_number` equal
 *   to an identifier of the query → a match, for every subject or only the named one.
 */
export async function loadListRules(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  q: { subjectReference?: string; names: string[]; documents: string[] },
): Promise<ListRules> {
  const names = [...new Set(q.names.map((n) => normalizeListValue('name', n)).filter(Boolean))];
  const docs = [...new Set(q.documents.map((d) => normalizeListValue('document_number', d)).filter(Boolean))];
  // Sealed values match by their blind index; rows not yet sealed (written before) by their clear value.
  const nameIdx = names.map((n) => listValueIndex(sealer, t, 'name', n));
  const docIdx = docs.map((d) => listValueIndex(sealer, t, 'document_number', d));
  const raw = await screeningListEntries(db, t, {
    subjectReference: q.subjectReference ?? null,
    names,
    documents: docs,
    nameIndexes: nameIdx,
    documentIndexes: docIdx,
  });
  const rows = raw.map((r) => {
    const { value, normalized } = openValue(sealer, r);
    return { ...r, value, normalized_value: normalized };
  });
  const rules: ListRules = { allow: new Set(), block: new Set(), blockHits: [], entryIds: rows.map((r) => r.id) };
  for (const r of rows) {
    if (r.kind === 'screening_entity') (r.list === 'allowlist' ? rules.allow : rules.block).add(r.value.trim());
    else {
      const what = r.kind === 'name' ? 'name' : 'document number';
      rules.blockHits.push({
        entity_id: `blocklist:${r.id}`,
        source: 'blocklist',
        schema: 'unknown',
        names: r.kind === 'name' ? [r.value] : [],
        datasets: [],
        programs: [],
        listed_at: null,
        source_url: null,
        score: 1,
        blocked: true,
        explanation: {
          matched: [`operator blocklist entry (${what} "${r.value}"): ${r.reason}`],
          contradicted: [],
          components: { block_entry: r.id, kind: r.kind },
        },
      });
    }
  }
  return rules;
}
