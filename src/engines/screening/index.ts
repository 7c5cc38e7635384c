import { TokenVocabulary } from './token-vocabulary.js';
import { prepareEntity, prepareQuery, scoreEntity, type PreparedEntity, type PreparedQuery } from './entity-score.js';
import { totalWeight, type NameToken } from './normalize.js';
import type { Dataset, Hit, ListEntity, ScreenOptions, ScreeningQuery, ScreeningResult, Decision } from './types.js';

/** Hits at or above this score are reported as potential matches (chosen on the benchmarks, see docs/screening.md). */
export const DEFAULT_THRESHOLD = 0.8;
/**
 * A hit at or above this score is a `match` when something besides the name agrees (date of birth,
 * or for organisations and vessels a country); an identifier or block entry is a `match` on its own.
 * A name alone, however exact, stays a `potential_match` for review: common names are the main source
 * of false positives.
 */
export const DEFAULT_MATCH_THRESHOLD = 0.95;
/** Most names fully scored per query; retrieval ranks candidates so the best ones are kept. */
const MAX_CANDIDATE_NAMES = 200;
/** A name must share at least this fraction of token weight with the query to be scored at all. */
const MIN_OVERLAP = 0.55;
const MIN_PROBE_WEIGHT = 0.3;

function isConfirmed(h: Hit, matchThreshold: number): boolean {
  const c = h.explanation.components;
  if (h.blocked || c.identifier === 'match') return true;
  if (h.score < matchThreshold) return false;
  const dob = c.birthDate === 'exact' || c.birthDate === 'year' || c.birthDate === 'within_range';
  return dob || (h.schema !== 'person' && c.country === 'match');
}

function retrievalWeight(tokens: readonly NameToken[]): number {
  const hard = tokens.filter((t) => t.weight >= MIN_PROBE_WEIGHT);
  return totalWeight(hard.length ? hard : tokens);
}

/**
 * An in-memory screening index over list entities: an inverted index from name tokens (exact,
 * phonetic, trigram-fuzzy, consonant skeleton) to names, plus an identifier index. Build it once per
 * snapshot; `screen` is synchronous and allocation-light.
 */
export class ScreeningIndex {
  private readonly prepared: PreparedEntity[];
  private readonly vocab = new TokenVocabulary();
  private postings: Int32Array[] = [];
  private readonly nameEntity: Int32Array;
  /** Position of each name within its entity's names. */
  private readonly nameOrdinal: Int32Array;
  private readonly nameWeight: Float32Array;
  private readonly identifierIndex = new Map<string, number[]>();
  private readonly byId = new Map<string, number>();
  // Scratch arrays reused by every query (screen is synchronous, so they are never shared).
  private readonly acc: Float32Array;
  private readonly tokBest: Float32Array;
  private readonly tokStamp: Int32Array;
  private stamp = 0;

  private constructor(entities: readonly ListEntity[]) {
    this.prepared = entities.map(prepareEntity);
    let nameCount = 0;
    for (const p of this.prepared) nameCount += p.names.length;
    this.nameEntity = new Int32Array(nameCount);
    this.nameOrdinal = new Int32Array(nameCount);
    this.nameWeight = new Float32Array(nameCount);
    const lists: number[][] = [];
    let nameId = 0;
    this.prepared.forEach((p, ei) => {
      this.byId.set(p.entity.id, ei);
      for (const [k, n] of p.names.entries()) {
        this.nameEntity[nameId] = ei;
        this.nameOrdinal[nameId] = k;
        this.nameWeight[nameId] = retrievalWeight(n.prepared.tokens);
        // Alternative readings (a Wade-Giles name's pinyin, a Han name's Japanese and Korean readings; normalize.ts
        // `alts`) are retrievable too.
        const words = new Set([n.prepared, ...(n.prepared.alts ?? [])].flatMap((r) => r.tokens).map((t) => t.text));
        for (const w of words) {
          const id = this.vocab.add(w, n.prepared.abjad);
          (lists[id] ??= []).push(nameId);
        }
        // The joined form lets "abdullah" retrieve "Abd Allah" and vice versa.
        const compact = n.prepared.compact;
        if (n.prepared.tokens.length > 1 && compact.length <= 16 && !words.has(compact)) {
          const id = this.vocab.add(compact, n.prepared.abjad, false);
          (lists[id] ??= []).push(nameId);
        }
        nameId++;
      }
      for (const ident of p.identifiers) {
        const l = this.identifierIndex.get(ident.value);
        if (l) l.push(ei);
        else this.identifierIndex.set(ident.value, [ei]);
      }
    });
    this.postings = lists.map((l) => Int32Array.from(l ?? []));
    this.vocab.freeze();
    this.acc = new Float32Array(nameCount);
    this.tokBest = new Float32Array(nameCount);
    this.tokStamp = new Int32Array(nameCount).fill(-1);
  }

  static build(entities: readonly ListEntity[]): ScreeningIndex {
    return new ScreeningIndex(entities);
  }

  get entityCount(): number {
    return this.prepared.length;
  }

  /** The data sets (sanctions, pep …) at least one entity of this index belongs to. */
  get datasets(): Dataset[] {
    const out = new Set<Dataset>();
    for (const p of this.prepared) for (const d of p.entity.datasets) out.add(d);
    return [...out].sort();
  }

  get nameCount(): number {
    return this.nameEntity.length;
  }

  get vocabularySize(): number {
    return this.vocab.size;
  }

  entity(id: string): ListEntity | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.prepared[i]!.entity;
  }

  /** All indexed entities, in build order. */
  entities(): ListEntity[] {
    return this.prepared.map((p) => p.entity);
  }

  screen(query: ScreeningQuery, options: ScreenOptions = {}): ScreeningResult {
    return this.screenPrepared(prepareQuery(query), options);
  }

  /** Same as screen, for callers that prepare a subject once and screen it against many indexes. */
  screenPrepared(q: PreparedQuery, options: ScreenOptions = {}): ScreeningResult {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const matchThreshold = options.matchThreshold ?? DEFAULT_MATCH_THRESHOLD;
    const limit = options.limit ?? 10;
    const datasets = options.datasets ? new Set(options.datasets) : undefined;
    const sources = options.sources ? new Set(options.sources) : undefined;
    const eligible = (p: PreparedEntity): boolean =>
      (!datasets || p.entity.datasets.some((d) => datasets.has(d))) && (!sources || sources.has(p.entity.source));

    // Entity → the names retrieval found (undefined: score all names, e.g. identifier or block hits).
    const entityIdx = this.retrieve(q);
    for (const ident of q.identifiers) for (const ei of this.identifierIndex.get(ident.value) ?? []) entityIdx.set(ei, undefined);
    const blocked = options.block ?? new Set<string>();
    for (const id of blocked) {
      const i = this.byId.get(id);
      if (i !== undefined) entityIdx.set(i, undefined);
    }

    const hits: Hit[] = [];
    const suppressed: string[] = [];
    let examined = 0;
    for (const [ei, names] of entityIdx) {
      const p = this.prepared[ei]!;
      if (!eligible(p)) continue;
      examined++;
      const isBlocked = blocked.has(p.entity.id);
      const s = scoreEntity(q, p, names, isBlocked ? 0 : threshold);
      if (s.score < threshold && !isBlocked) continue;
      if (options.allow?.has(p.entity.id) && !isBlocked) {
        suppressed.push(p.entity.id);
        continue;
      }
      const e = p.entity;
      const hit: Hit = {
        entityId: e.id,
        source: e.source,
        schema: e.schema,
        names: e.names.map((n) => n.full),
        datasets: e.datasets,
        programs: e.programs,
        score: s.score,
        explanation: s.explanation,
      };
      if (isBlocked) {
        hit.blocked = true;
        hit.explanation.matched.unshift('operator block list entry for this subject and entity');
      }
      hits.push(hit);
    }
    hits.sort((a, b) => Number(!!b.blocked) - Number(!!a.blocked) || b.score - a.score);
    const top = hits.slice(0, limit);
    let decision: Decision = 'no_match';
    if (top.length) decision = top.some((h) => isConfirmed(h, matchThreshold)) ? 'match' : 'potential_match';
    return { decision, hits: top, suppressed, candidatesExamined: examined, threshold };
  }

  /** Candidate entities whose names share enough weighted tokens with any query name. */
  private retrieve(q: PreparedQuery): Map<number, Set<number> | undefined> {
    const acc = this.acc;
    const touched: number[] = [];
    const ranked: Array<[number, number]> = [];
    for (const qn of q.names.flatMap((n) => [n, ...(n.alts ?? [])])) {
      // Particles and legal forms ("al", "ltd") would touch a large share of the list while saying
      // little; they are left to the scorer. A name made only of them is probed as it is.
      const hard = qn.tokens.filter((t) => t.weight >= MIN_PROBE_WEIGHT);
      const probeTokens = hard.length ? hard : qn.tokens;
      const qWeight = totalWeight(probeTokens) || 1;
      const probes: Array<{ text: string; weight: number; units?: NameToken['units'] }> = probeTokens.map((t) => ({
        text: t.text,
        weight: t.weight,
        units: t.units,
      }));
      if (qn.tokens.length > 1 && qn.compact.length >= 5 && !qn.tokens.some((t) => t.units))
        probes.push({ text: qn.compact, weight: qWeight * 0.9 });
      // Arabic has no v or p: a foreign name writes v with ف, read f here ("فلاديمير" → "fladymyr" for
      // Vladimir). Such a word is also probed with v.
      if (qn.abjad)
        for (const t of probeTokens) if (t.text.includes('f')) probes.push({ text: t.text.replace(/f/g, 'v'), weight: t.weight });
      // Arabic compounds are split or joined at will in Latin ("حبیب الله" / "Habibullah").
      if (qn.abjad)
        for (let i = 0; i + 1 < probeTokens.length; i++)
          probes.push({
            text: probeTokens[i]!.text + probeTokens[i + 1]!.text,
            weight: probeTokens[i]!.weight + probeTokens[i + 1]!.weight,
          });
      for (const probe of probes) {
        const stamp = ++this.stamp;
        // A transcription's word is looked up by its syllables (transcription.ts), not by its letters.
        const matches = probe.units ? this.vocab.lookupTranscription(probe.units) : this.vocab.lookup(probe.text, qn.abjad);
        for (const m of matches) {
          const post = this.postings[m.id]!;
          const gain = probe.weight * m.similarity;
          for (let i = 0; i < post.length; i++) {
            const n = post[i]!;
            // Keep only the best vocabulary match per query token and name, so near-duplicates don't add up.
            if (this.tokStamp[n] !== stamp) {
              if (acc[n] === 0) touched.push(n);
              this.tokStamp[n] = stamp;
              this.tokBest[n] = gain;
              acc[n]! += gain;
            } else if (gain > this.tokBest[n]!) {
              acc[n]! += gain - this.tokBest[n]!;
              this.tokBest[n] = gain;
            }
          }
        }
      }
      for (const n of touched) {
        const overlap = Math.min(1, acc[n]! / Math.min(qWeight, this.nameWeight[n]! || 1));
        const cover = acc[n]! / Math.max(qWeight, this.nameWeight[n]! || 1);
        if (overlap >= MIN_OVERLAP) ranked.push([n, overlap + cover]);
        acc[n] = 0;
      }
      touched.length = 0;
    }
    if (this.stamp > 2_000_000_000) {
      this.stamp = 0;
      this.tokStamp.fill(-1);
    }
    if (ranked.length > MAX_CANDIDATE_NAMES) {
      ranked.sort((a, b) => b[1] - a[1]);
      ranked.length = MAX_CANDIDATE_NAMES;
    }
    const out = new Map<number, Set<number> | undefined>();
    for (const [n] of ranked) {
      const ei = this.nameEntity[n]!;
      const set = out.get(ei) ?? new Set<number>();
      set.add(this.nameOrdinal[n]!);
      out.set(ei, set);
    }
    return out;
  }
}
