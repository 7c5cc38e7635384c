// The Companies House Public Data API (api.company-information.service.gov.uk; HTTP basic auth with the API
// key as the user name and no password): company search, the company profile, its officers and its persons
// with significant control. PSC items are the same resources as the PSC stream, so they are read by the
// PSC reader of companies-house.ts (bands with their exclusive lower bound, every kind, unknown kinds skipped).

import { companyNumber, pscRecords, ukCompanyOf } from './companies-house.js';
import { digestOf, getJson, LiveRegistryError, RateLimit, type LiveFetch, type LiveHttpOptions, type LiveRegistry } from './live-http.js';
import { day, newStats, obj, skip, str, type EntityRecord, type RegistryRecord } from './registry-source.js';

const LABEL = 'api.company-information.service.gov.uk';
const NUMBER_RE = /^[A-Z0-9]{8}$/;

export interface CompaniesHouseApiOptions extends LiveHttpOptions {
  /** Calls a minute (Companies House allows 600 per 5 minutes per key). */
  perMinute: number;
  apiKey: string;
  /**
   * How many levels of PSCs are read: 1 reads the company's PSCs only; each further level reads the PSCs of the
   * corporate PSCs that are UK companies (and so on), a company met twice read once. Default 1.
   */
  pscDepth?: number;
}

/** Officer roles that sit on the board (BODS boardMember); secretaries and others are not owners or managers. */
const BOARD_ROLES = /^(corporate-)?(nominee-)?director$|^(corporate-)?llp-(designated-)?member$|^(corporate-)?member-of-/;

const items = (doc: unknown): Record<string, unknown>[] =>
  Array.isArray(obj(doc)['items']) ? (obj(doc)['items'] as unknown[]).map(obj) : [];

function address(a: Record<string, unknown>): EntityRecord['address'] {
  const lines = [
    str(a['care_of']),
    str(a['po_box']),
    [str(a['premises']), str(a['address_line_1'])].filter(Boolean).join(' '),
    str(a['address_line_2']),
  ]
    .map((x) => str(x))
    .filter((x): x is string => !!x);
  return {
    lines,
    ...(str(a['locality']) ? { city: str(a['locality']) } : {}),
    ...(str(a['region']) ? { region: str(a['region']) } : {}),
    ...(str(a['postal_code']) ? { postalCode: str(a['postal_code']) } : {}),
    country: 'GB',
  };
}

/** A company profile or a search hit (search hits name the company `title`). */
function company(c: Record<string, unknown>): EntityRecord | undefined {
  const raw = str(c['company_number']);
  if (!raw) return undefined;
  const number = companyNumber(raw);
  const previous = Array.isArray(c['previous_company_names']) ? (c['previous_company_names'] as unknown[]).map(obj) : [];
  const dissolved = day(c['date_of_cessation']);
  const created = day(c['date_of_creation']);
  return {
    kind: 'entity',
    ref: number,
    name: str(c['company_name']) ?? str(c['title']) ?? number,
    otherNames: previous.map((p) => str(p['name'])).filter((x): x is string => !!x),
    registrationNumber: number,
    registrationAuthority: 'RA000585',
    jurisdiction: 'GB',
    country: 'GB',
    address: address(obj(c['registered_office_address'] ?? c['address'])),
    ...(str(c['type'] ?? c['company_type']) ? { legalForm: str(c['type'] ?? c['company_type']) } : {}),
    ...(str(c['company_status']) ? { status: str(c['company_status'])!.toLowerCase() } : {}),
    ...(created ? { incorporationDate: created } : {}),
    ...(dissolved ? { dissolutionDate: dissolved } : {}),
    entityType: 'registeredEntity',
  };
}

/** Officers on the board as persons with a boardMember interest (dates kept); the role stays in sourceType. */
function* officerRecords(number: string, doc: unknown, stats: ReturnType<typeof newStats>): Generator<RegistryRecord> {
  for (const o of items(doc)) {
    stats.read++;
    const role = str(o['officer_role']) ?? '';
    if (!BOARD_ROLES.test(role)) {
      skip(stats, `officer role ${role || '(none)'}`);
      continue;
    }
    const links = obj(o['links']);
    const id =
      str(obj(links['officer'])['appointments'])?.split('/').filter(Boolean).at(-2) ?? str(links['self'])?.split('/').filter(Boolean).pop();
    if (!id) {
      skip(stats, 'officer without an id');
      continue;
    }
    const dob = obj(o['date_of_birth']);
    const start = day(o['appointed_on']),
      end = day(o['resigned_on']);
    const corporate = role.startsWith('corporate-');
    const party = `officer:${id}`;
    if (corporate)
      yield { kind: 'entity', ref: party, name: str(o['name']) ?? 'unnamed entity', otherNames: [], entityType: 'registeredEntity' };
    else
      yield {
        kind: 'person',
        ref: party,
        name: str(o['name']) ?? 'unnamed person',
        personType: 'knownPerson',
        ...(typeof dob['year'] === 'number' ? { birthYear: dob['year'] } : {}),
        ...(typeof dob['month'] === 'number' ? { birthMonth: dob['month'] } : {}),
        ...(str(o['nationality']) ? { nationality: str(o['nationality']) } : {}),
        ...(str(o['country_of_residence']) ? { countryOfResidence: str(o['country_of_residence']) } : {}),
      };
    yield {
      kind: 'relationship',
      ref: `officer:${number}:${id}`,
      subject: number,
      interestedParty: party,
      interests: [
        {
          type: 'boardMember',
          directOrIndirect: 'direct',
          beneficialOwnershipOrControl: false,
          ...(start ? { startDate: start } : {}),
          ...(end ? { endDate: end } : {}),
        },
      ],
      isComponent: false,
      componentRefs: [],
      sourceType: `officer:${role}`,
      ...(end ? { status: 'ceased' } : {}),
    };
  }
}

export function companiesHouseApi(o: CompaniesHouseApiOptions): LiveRegistry {
  const limit = new RateLimit(o.perMinute);
  const http = { ...o, basicAuthUser: o.apiKey };
  const get = async (path: string, deadline: number) => {
    await limit.take(deadline);
    return getJson(http, path, deadline);
  };
  const optional = async (path: string, deadline: number): Promise<unknown> => {
    try {
      return await get(path, deadline);
    } catch (e) {
      if (e instanceof LiveRegistryError && e.kind === 'not_found') return { items: [] };
      throw e;
    }
  };
  return {
    source: 'gb_coh',
    async search(q, deadline) {
      const size = Math.min(Math.max(q.limit, 1), 100);
      const out: EntityRecord[] = [];
      const number = q.registrationNumber ? companyNumber(q.registrationNumber) : undefined;
      if (number && NUMBER_RE.test(number)) {
        try {
          const c = company(obj(await get(`company/${number}`, deadline)));
          if (c) out.push(c);
        } catch (e) {
          if (!(e instanceof LiveRegistryError && e.kind === 'not_found')) throw e;
        }
      }
      if (q.name)
        for (const hit of items(await get(`search/companies?q=${encodeURIComponent(q.name)}&items_per_page=${size}`, deadline))) {
          const c = company(hit);
          if (c) out.push(c);
        }
      return [...new Map(out.map((e) => [e.ref, e])).values()].slice(0, size);
    },
    async fetch(ref, deadline): Promise<LiveFetch> {
      const number = companyNumber(ref);
      if (!NUMBER_RE.test(number)) throw new LiveRegistryError('not_found', `${JSON.stringify(ref)} is not a company number`);
      const profile = await get(`company/${number}`, deadline);
      const entity = company(obj(profile));
      if (!entity) throw new LiveRegistryError('permanent', `company/${number}: the answer has no company_number`);
      const officers = await optional(`company/${number}/officers?items_per_page=100`, deadline);
      const stats = newStats();
      stats.read++;
      const records: RegistryRecord[] = [entity, ...officerRecords(number, officers, stats)];
      const answers: unknown[] = [profile, officers];
      // The company's PSCs, then (up to the depth) the PSCs of those PSCs that are UK companies, breadth first.
      // A corporate PSC that is a UK company is stored under its company number, so that company's own PSCs
      // (their subject is that number) hang below it in the graph; a company met again (a cycle) is not re-read.
      const depth = o.pscDepth ?? 1;
      const seen = new Set([number]);
      let level: { number: string; entity?: EntityRecord }[] = [{ number, entity }];
      for (let d = 1; d <= depth && level.length; d++) {
        const next: typeof level = [];
        for (const owned of level) {
          if (owned.number !== number) {
            const p = await optional(`company/${owned.number}`, deadline);
            answers.push(p);
            const e = company(obj(p));
            if (e || owned.entity) records.push(e ?? owned.entity!);
          }
          const pscs = await optional(`company/${owned.number}/persons-with-significant-control?items_per_page=100`, deadline);
          const statements = await optional(
            `company/${owned.number}/persons-with-significant-control-statements?items_per_page=100`,
            deadline,
          );
          answers.push(pscs, statements);
          [...items(pscs), ...items(statements)].forEach((item, i) => {
            const renamed = new Map<string, string>();
            for (const r of pscRecords(
              { company_number: owned.number, data: item },
              stats,
              `${LABEL} company/${owned.number}/psc`,
              i + 1,
            )) {
              const uk = r.kind === 'entity' ? ukCompanyOf(r) : undefined;
              if (r.kind === 'entity' && uk) {
                renamed.set(r.ref, uk);
                if (seen.has(uk)) continue;
                seen.add(uk);
                const e = { ...r, ref: uk };
                if (d < depth) next.push({ number: uk, entity: e });
                else records.push(e);
              } else if (r.kind === 'relationship' && typeof r.interestedParty === 'string' && renamed.has(r.interestedParty))
                records.push({ ...r, interestedParty: renamed.get(r.interestedParty)! });
              else records.push(r);
            }
          });
        }
        level = next;
      }
      return { records, stats, label: `${LABEL} company/${number}`, digest: digestOf(answers) };
    },
  };
}
