import { compareNames, type NameComparison } from './name-score.js';
import { prepareName, type PreparedName } from './normalize.js';
import { countryCode } from './countries.js';
import { compareBirthDates, parseQueryDate, type QueryDate } from './dates.js';
import type { EntitySchema, Explanation, Identifier, ListEntity, NameQuality, ScoreComponents, ScreeningQuery } from './types.js';

/** A query normalised once, reusable across indexes (re-screening runs one query against many deltas). */
export interface PreparedQuery {
  names: PreparedName[];
  schema: EntitySchema;
  birthDate?: QueryDate;
  countries: string[];
  gender?: 'male' | 'female';
  identifiers: Array<{ type: string; value: string }>;
}

export interface PreparedEntity {
  entity: ListEntity;
  names: Array<{ prepared: PreparedName; quality: NameQuality }>;
  countries: Set<string>;
  identifiers: Array<{ type: string; value: string }>;
}

/** Identifier values compared without spaces, dashes or case: "AB-123 456" equals "ab123456". */
export function normalizeIdentifier(value: string): string {
  return value
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

// Types that name the same kind of document; any other pair of different types never matches, so a
// tax number cannot be equal to a passport number by accident.
function identifierFamily(type: string): string {
  const t = type.toLowerCase();
  if (t.startsWith('crypto')) return 'crypto';
  if (/passport/.test(t)) return 'passport';
  if (/national|citizen|cedula|curp|personal|identity|id_card|idcard/.test(t)) return 'national_id';
  if (/tax|inn|vat|nit|rfc|ruc|ssn/.test(t)) return 'tax_id';
  if (/imo/.test(t)) return 'imo';
  if (/mmsi/.test(t)) return 'mmsi';
  if (/lei/.test(t)) return 'lei';
  if (/swift|bic/.test(t)) return 'swift';
  if (/mail/.test(t)) return 'email';
  if (/call.?sign/.test(t)) return 'call_sign';
  if (/registration|ogrn|company|business|kpp|okpo/.test(t)) return 'registration';
  return t;
}

export function prepareIdentifiers(ids: readonly Identifier[]): Array<{ type: string; value: string }> {
  return ids.map((i) => ({ type: identifierFamily(i.type), value: normalizeIdentifier(i.value) })).filter((i) => i.value.length >= 4);
}

export function prepareEntity(entity: ListEntity): PreparedEntity {
  return {
    entity,
    names: entity.names.map((n) => ({ prepared: prepareName(n.full, entity.schema), quality: n.quality })),
    countries: new Set([...entity.nationalities, ...entity.countries]),
    identifiers: prepareIdentifiers(entity.identifiers),
  };
}

export function prepareQuery(q: ScreeningQuery): PreparedQuery {
  const schema = q.schema ?? 'unknown';
  const names = [q.name, ...(q.aliases ?? [])].filter((n) => n.trim().length > 0).map((n) => prepareName(n, schema));
  // Abjad-ness changes token similarity, so memoised similarities are only shared within one name.
  for (const n of names) for (const t of n.tokens) t.memo = new Map();
  const countries = (q.countries ?? []).map((c) => countryCode(c)).filter((c): c is string => c !== undefined);
  return {
    names,
    schema,
    birthDate: q.birthDate ? parseQueryDate(q.birthDate) : undefined,
    countries,
    gender: q.gender,
    identifiers: prepareIdentifiers(q.identifiers ?? []),
  };
}

/** Weak aliases only count when they match almost exactly, and then below a strong name's score. */
function weakAdjust(score: number): number {
  return score >= 0.95 ? score * 0.95 : score * 0.75;
}

export interface EntityScore {
  score: number;
  identifierMatch: boolean;
  explanation: Explanation;
}

function bestName(
  q: PreparedQuery,
  e: PreparedEntity,
  only?: ReadonlySet<number>,
): { cmp: NameComparison; adjusted: number; name: string; quality: NameQuality; query: string } {
  let best: { cmp: NameComparison; adjusted: number; name: string; quality: NameQuality; query: string } | undefined;
  for (const qn of q.names) {
    for (let k = 0; k < e.names.length; k++) {
      if (only && !only.has(k)) continue;
      const en = e.names[k]!;
      const cmp = compareNames(qn, en.prepared);
      const adjusted = en.quality === 'weak' ? weakAdjust(cmp.score) : cmp.score;
      if (!best || adjusted > best.adjusted) best = { cmp, adjusted, name: en.prepared.original, quality: en.quality, query: qn.original };
      if (adjusted >= 1) break;
    }
  }
  return (
    best ?? {
      cmp: { score: 0, pairs: [], conflictingQuery: [], conflictingCandidate: [], extra: [], compact: false },
      adjusted: 0,
      name: '',
      quality: 'strong',
      query: '',
    }
  );
}

function describeName(b: ReturnType<typeof bestName>): string {
  const parts = b.cmp.pairs.map((p) => (p.similarity >= 1 ? p.query : `${p.query}~${p.candidate} (${p.similarity.toFixed(2)})`));
  const how = b.cmp.compact ? 'as one joined word' : parts.join(', ');
  return `name "${b.query}" ~ ${b.quality === 'weak' ? 'weak alias' : 'listed name'} "${b.name}" (${b.adjusted.toFixed(2)}): ${how}`;
}

/** Most any non-name evidence can add; a name below threshold minus this can never become a hit. */
const MAX_BONUS = 0.07;

/**
 * Scores one entity against a query and explains every component that moved the score.
 * `names` restricts the comparison to those name indexes (the ones retrieval found); `minScore` lets
 * hopeless candidates return early without building an explanation.
 */
export function scoreEntity(q: PreparedQuery, e: PreparedEntity, names?: ReadonlySet<number>, minScore = 0): EntityScore {
  const b = bestName(q, e, names);
  const idHit =
    q.identifiers.length > 0 && q.identifiers.some((qi) => e.identifiers.some((ei) => ei.value === qi.value && ei.type === qi.type));
  if (!idHit && b.adjusted + MAX_BONUS < minScore) {
    return {
      score: b.adjusted,
      identifierMatch: false,
      explanation: { matched: [], contradicted: [], components: { name: b.adjusted, matchedName: b.name, nameQuality: b.quality } },
    };
  }
  const matched: string[] = [];
  const contradicted: string[] = [];
  const components: ScoreComponents = { name: b.adjusted, matchedName: b.name, nameQuality: b.quality };
  if (b.adjusted > 0) matched.push(describeName(b));
  if (b.cmp.extra.length) matched.push(`words only on one side: ${b.cmp.extra.join(' ')}`);
  if (b.cmp.conflictingQuery.length)
    contradicted.push(`name words differ: "${b.cmp.conflictingQuery.join(' ')}" vs "${b.cmp.conflictingCandidate.join(' ')}"`);
  let score = b.adjusted;

  const idMatch = q.identifiers.find((qi) => e.identifiers.some((ei) => ei.value === qi.value && ei.type === qi.type));
  if (idMatch) {
    components.identifier = 'match';
    matched.push(`identifier ${idMatch.type} ${idMatch.value} is on the list entry (decisive)`);
  } else if (q.identifiers.length && e.identifiers.length) {
    const sameType = q.identifiers.filter((qi) => e.identifiers.some((ei) => ei.type === qi.type));
    if (sameType.length) {
      components.identifier = 'contradicts';
      // A vessel or company has exactly one IMO / MMSI / call sign / LEI: a different one is strong evidence.
      const strong = sameType.some((s) => s.type === 'imo' || s.type === 'mmsi' || s.type === 'lei' || s.type === 'call_sign');
      score -= strong ? 0.2 : 0.05;
      contradicted.push(`${sameType.map((s) => s.type).join(', ')} differs from the listed one`);
    } else components.identifier = 'missing';
  } else components.identifier = 'missing';

  const dob = compareBirthDates(q.birthDate, e.entity.birthDates);
  components.birthDate = dob.outcome;
  score += dob.adjustment;
  if (dob.detail) (dob.adjustment < 0 ? contradicted : matched).push(dob.detail);

  if (q.countries.length && e.countries.size) {
    const common = q.countries.filter((c) => e.countries.has(c));
    if (common.length) {
      components.country = 'match';
      score += 0.02;
      matched.push(`country ${common.join(', ')} is linked to the entry`);
    } else {
      components.country = 'contradicts';
      score -= 0.05;
      contradicted.push(`country ${q.countries.join(', ')} not among listed ${[...e.countries].join(', ')}`);
    }
  } else components.country = 'missing';

  const es = e.entity.schema;
  if (q.schema !== 'unknown' && es !== 'unknown') {
    if (q.schema === es) components.schema = 'match';
    else {
      components.schema = 'contradicts';
      score *= 0.5;
      contradicted.push(`entity type ${q.schema} vs listed ${es}`);
    }
  } else components.schema = 'missing';

  if (q.gender && e.entity.gender) {
    if (q.gender === e.entity.gender) components.gender = 'match';
    else {
      components.gender = 'contradicts';
      score -= 0.1;
      contradicted.push(`gender ${q.gender} vs listed ${e.entity.gender}`);
    }
  } else components.gender = 'missing';

  if (idMatch) score = 1;
  score = Math.max(0, Math.min(1, Math.round(score * 1000) / 1000));
  return { score, identifierMatch: !!idMatch, explanation: { matched, contradicted, components } };
}
