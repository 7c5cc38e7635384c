import type { ListEntity, ScreeningQuery } from '../../engines/screening/types.js';

// Works around an engine bug: the legal-form table is a plain object, so the word "constructor"
// finds Object.prototype.constructor and the engine throws (index build and query alike: one OFAC
// 2019 entry holds the word). The proper fix is one line in src/engines/screening/name-tables.ts
// (`Object.hasOwn(LEGAL_FORM_SINGLE, token)`); until it lands, the word is respelt the same way on
// both sides, so it still matches itself, and hits show the listed names unchanged.

const TRAP = /\bconstructor\b/gi;

export function guardName(name: string): string {
  return /\bconstructor\b/i.test(name) ? name.replace(TRAP, 'constructer') : name;
}

/** The entity with trap words respelt, or the same object when it has none. */
export function guardEntity(e: ListEntity): ListEntity {
  if (!e.names.some((n) => /\bconstructor\b/i.test(n.full))) return e;
  return { ...e, names: e.names.map((n) => ({ ...n, full: guardName(n.full) })) };
}

export function guardQuery(q: ScreeningQuery): ScreeningQuery {
  return { ...q, name: guardName(q.name), ...(q.aliases ? { aliases: q.aliases.map(guardName) } : {}) };
}

/** Listed names as published, for entities whose names were respelt (usually none). */
export function originalNames(entities: readonly ListEntity[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of entities) if (e.names.some((n) => /\bconstructor\b/i.test(n.full))) out.set(e.id, e.names.map((n) => n.full));
  return out;
}
