// Records of other registers that are the same legal entity as a record of the graph: the same registration
// number in the same country (a corporate PSC registered abroad and its GLEIF record; a UK company and its LEI
// record, whose RegistrationAuthorityEntityID is the company number). Both must agree: numbers repeat across
// registers.

import type { Queryable } from '../../platform/db.js';
import { companyNumber, type EntityRecord } from '../../providers/registries/index.js';
import { registryRecords, type StoredRecord } from './registry-repository.js';

/** The country a record is registered in: its jurisdiction's country part, else its country. */
const registeredIn = (e: EntityRecord): string | undefined => {
  const j = e.jurisdiction && /^[A-Z]{2}(-|$)/.test(e.jurisdiction) ? e.jurisdiction.slice(0, 2) : undefined;
  return j ?? e.country;
};
const numberKey = (n: string, country: string | undefined): string => {
  const t = n.trim().toUpperCase().replace(/\s+/g, '');
  return country === 'GB' ? companyNumber(t) : t;
};

/** For each given record (by the key the caller names it with), the records of other sources that are the same entity. */
export async function sameEntityElsewhere(
  db: Queryable,
  source: string,
  nodes: { key: string; record: StoredRecord<EntityRecord> }[],
): Promise<Map<string, StoredRecord<EntityRecord>[]>> {
  const out = new Map<string, StoredRecord<EntityRecord>[]>();
  const wanted = new Map<string, string[]>();
  for (const { key, record: n } of nodes) {
    const country = registeredIn(n.data);
    if (!n.data.registrationNumber || !country) continue;
    const k = `${country}\u0000${numberKey(n.data.registrationNumber, country)}`;
    wanted.set(k, [...(wanted.get(k) ?? []), key]);
  }
  if (!wanted.size) return out;
  const numbers = [...new Set([...wanted.keys()].map((k) => k.split('\u0000')[1]!))];
  for (const other of await registryRecords.byRegistrationNumbers(db, numbers, source)) {
    const country = registeredIn(other.data);
    if (!country || !other.data.registrationNumber) continue;
    for (const key of wanted.get(`${country}\u0000${numberKey(other.data.registrationNumber, country)}`) ?? [])
      out.set(key, [...(out.get(key) ?? []), other]);
  }
  return out;
}
