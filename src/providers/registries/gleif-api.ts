// GLEIF's live API (api.gleif.org/api/v1, JSON:API, no key): LEI records by LEI, name or registration number,
// and an entry's Level 2 data (direct and ultimate parent relationship records with the parents' LEI
// records, or the reporting exception that says why a parent is not reported). The answers are read by the
// same JSON:API reader as the GLEIF files (gleif.ts), so a live record and an imported one are the same.

import { jsonApiRecords } from './gleif.js';
import { digestOf, getJson, LiveRegistryError, RateLimit, type LiveFetch, type LiveHttpOptions, type LiveRegistry } from './live-http.js';
import { newStats, type EntityRecord, type RegistryRecord } from './registry-source.js';

const LEI_RE = /^[0-9A-Z]{18}[0-9]{2}$/;
const LABEL = 'api.gleif.org';

export interface GleifApiOptions extends LiveHttpOptions {
  /** Calls a minute (GLEIF asks for at most 60). */
  perMinute: number;
  /**
   * How many direct parents up are followed: 1 reads the entry's direct parent only; each further level reads
   * the last parent's own direct parent (relationship and record, or the reporting exception). Default 1.
   */
  parentDepth?: number;
}

/** The LEI of `lei`'s direct parent in these answers (its IS_DIRECTLY_CONSOLIDATED_BY relationship), if any. */
function directParentOf(answers: unknown[], lei: string): string | undefined {
  for (const doc of answers)
    for (const r of jsonApiRecords(doc, newStats(), LABEL, 1))
      if (
        r.kind === 'relationship' &&
        r.subject === lei &&
        r.sourceType === 'IS_DIRECTLY_CONSOLIDATED_BY' &&
        typeof r.interestedParty === 'string'
      )
        return r.interestedParty;
  return undefined;
}

export function gleifApi(o: GleifApiOptions): LiveRegistry {
  const limit = new RateLimit(o.perMinute);
  const get = async (path: string, deadline: number) => {
    await limit.take(deadline);
    return getJson(o, path, deadline);
  };
  /** The answer, or null when the API says there is none (404, or a JSON:API document with `data: null`). */
  const maybe = async (path: string, deadline: number): Promise<unknown> => {
    try {
      const doc = await get(path, deadline);
      return doc && typeof doc === 'object' && (doc as { data?: unknown }).data ? doc : null;
    } catch (e) {
      if (e instanceof LiveRegistryError && e.kind === 'not_found') return null;
      throw e;
    }
  };
  const entities = (doc: unknown): EntityRecord[] =>
    [...jsonApiRecords(doc, newStats(), LABEL, 1)].filter((r): r is EntityRecord => r.kind === 'entity');

  return {
    source: 'gleif',
    async search(q, deadline) {
      const size = Math.min(Math.max(q.limit, 1), 200);
      const out: EntityRecord[] = [];
      if (q.lei && LEI_RE.test(q.lei.toUpperCase())) {
        const doc = await maybe(`lei-records/${q.lei.toUpperCase()}`, deadline);
        if (doc) out.push(...entities(doc));
      }
      if (q.registrationNumber)
        out.push(
          ...entities(
            await get(`lei-records?filter[entity.registeredAs]=${encodeURIComponent(q.registrationNumber)}&page[size]=${size}`, deadline),
          ),
        );
      if (q.name)
        out.push(...entities(await get(`lei-records?filter[entity.names]=${encodeURIComponent(q.name)}&page[size]=${size}`, deadline)));
      return [...new Map(out.map((e) => [e.ref, e])).values()].slice(0, size);
    },
    async fetch(ref, deadline): Promise<LiveFetch> {
      const lei = ref.toUpperCase();
      if (!LEI_RE.test(lei)) throw new LiveRegistryError('not_found', `${JSON.stringify(ref)} is not an LEI`);
      const record = await maybe(`lei-records/${lei}`, deadline);
      if (!record) throw new LiveRegistryError('not_found', `LEI ${lei} is not in GLEIF`);
      const answers: unknown[] = [record];
      // Direct and ultimate parent: the relationship record and the parent's LEI record, or the reporting exception.
      for (const level of ['direct', 'ultimate'] as const) {
        const rel = await maybe(`lei-records/${lei}/${level}-parent-relationship`, deadline);
        if (rel) {
          answers.push(rel);
          const parent = await maybe(`lei-records/${lei}/${level}-parent`, deadline);
          if (parent) answers.push(parent);
        } else {
          const exception = await maybe(`lei-records/${lei}/${level}-parent-reporting-exception`, deadline);
          if (exception) answers.push(exception);
        }
      }
      // Intermediate parents: the direct parent's direct parent, and so on, each step one more relationship of
      // the graph (so a chain of holdings is resolved, not only its two ends). A parent seen before is a cycle: stop.
      const seen = new Set([lei]);
      let child = directParentOf(answers, lei);
      for (let level = 2; child && level <= (o.parentDepth ?? 1) && !seen.has(child); level++) {
        seen.add(child);
        const rel = await maybe(`lei-records/${child}/direct-parent-relationship`, deadline);
        if (!rel) {
          const exception = await maybe(`lei-records/${child}/direct-parent-reporting-exception`, deadline);
          if (exception) answers.push(exception);
          break;
        }
        answers.push(rel);
        const parent = await maybe(`lei-records/${child}/direct-parent`, deadline);
        if (parent) answers.push(parent);
        child = directParentOf([rel], child);
      }
      const stats = newStats();
      const records: RegistryRecord[] = [];
      for (const doc of answers) records.push(...jsonApiRecords(doc, stats, LABEL, 1));
      return { records, stats, label: `${LABEL} lei-records/${lei}`, digest: digestOf(answers) };
    },
  };
}
