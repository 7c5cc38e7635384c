// UK Companies House: the basic company data product (CSV, or the same rows as JSON) and the PSC data
// (the bulk snapshot's JSON lines and the streaming API's records) of every kind. Natures of control are
// bands with an exclusive lower bound ("25-to-50-percent" means more than 25 % and at most 50 %), kept so.

import type { Interest } from '../../engines/ownership/index.js';
import { countryCode } from '../../engines/screening/countries.js';
import { csvRows, fileLabel, jsonItems } from './read-input.js';
import {
  day,
  obj,
  RegistryFileError,
  skip,
  str,
  type EntityRecord,
  type ParseStats,
  type RegistryFormat,
  type RegistryRecord,
} from './registry-source.js';

/** Company numbers are eight characters; the stream samples drop the leading zero ("1234567"). */
export function companyNumber(n: string): string {
  const t = n.trim().toUpperCase();
  return /^\d{1,7}$/.test(t) ? t.padStart(8, '0') : t;
}

const NUMBER_RE = /^[A-Z0-9]{8}$/;
/** Where a corporate PSC registered to count as a UK company (Companies House writes these freely). */
const UK_REGISTER = /^(united kingdom|uk|gb|great britain|england|wales|scotland|northern ireland|england (and|&) wales)$/i;

/** The ISO country of a PSC's `country_registered` (free text: "England", "Cayman Islands", "US"), if known. */
export function registeredCountry(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return UK_REGISTER.test(text.trim()) ? 'GB' : countryCode(text);
}

/** The company number of a corporate PSC registered in the UK, if its identification gives one. */
export function ukCompanyOf(e: EntityRecord): string | undefined {
  if (e.entityType !== 'registeredEntity' || !e.registrationNumber) return undefined;
  const number = companyNumber(e.registrationNumber);
  const where = [e.jurisdiction, e.registrationAuthority].filter(Boolean).join(' ');
  const uk = (e.jurisdiction && UK_REGISTER.test(e.jurisdiction.trim())) || /companies house/i.test(where);
  return uk && NUMBER_RE.test(number) ? number : undefined;
}

const ukDate = (s: string | undefined): string | undefined => {
  const m = s ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s.trim()) : null;
  return m ? `${m[3]}-${m[2]}-${m[1]}` : day(s);
};

// ---- basic company data ----

const COMPANY_COLUMNS = ['CompanyName', 'CompanyNumber', 'CompanyStatus', 'IncorporationDate'];

function company(row: Record<string, unknown>): EntityRecord {
  const s = (k: string) => str(row[k]);
  const otherNames: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const n = s(`PreviousName_${i}.CompanyName`);
    if (n) otherNames.push(n);
  }
  const lines = ['RegAddress.CareOf', 'RegAddress.POBox', 'RegAddress.AddressLine1', 'RegAddress.AddressLine2']
    .map(s)
    .filter((x): x is string => !!x);
  const number = companyNumber(s('CompanyNumber') ?? '');
  const dissolved = ukDate(s('DissolutionDate'));
  return {
    kind: 'entity',
    ref: number,
    name: s('CompanyName') ?? number,
    otherNames,
    registrationNumber: number,
    registrationAuthority: 'RA000585',
    jurisdiction: 'GB',
    country: 'GB',
    address: {
      lines,
      ...(s('RegAddress.PostTown') ? { city: s('RegAddress.PostTown') } : {}),
      ...(s('RegAddress.County') ? { region: s('RegAddress.County') } : {}),
      ...(s('RegAddress.PostCode') ? { postalCode: s('RegAddress.PostCode') } : {}),
      country: 'GB',
    },
    ...(s('CompanyCategory') ? { legalForm: s('CompanyCategory') } : {}),
    ...(s('CompanyStatus') ? { status: s('CompanyStatus')!.toLowerCase() } : {}),
    ...(ukDate(s('IncorporationDate')) ? { incorporationDate: ukDate(s('IncorporationDate')) } : {}),
    ...(dissolved ? { dissolutionDate: dissolved } : {}),
    entityType: 'registeredEntity',
  };
}

async function* companiesCsv(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, row } of csvRows(path, COMPANY_COLUMNS)) {
    stats.read++;
    if (!str(row['CompanyNumber'])) throw new RegistryFileError(file, line, 'CompanyNumber is empty');
    yield company(row);
  }
}

async function* companiesJson(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, value } of jsonItems(path)) {
    stats.read++;
    const row = obj(value);
    if (!str(row['CompanyNumber'])) throw new RegistryFileError(file, line, 'CompanyNumber is missing');
    yield company(row);
  }
}

// ---- persons with significant control ----

const NATURE_TYPES: [RegExp, string][] = [
  [/^ownership-of-shares/, 'shareholding'],
  [/^voting-rights/, 'votingRights'],
  [/^right-to-appoint-and-remove-(directors|members|person)/, 'appointmentOfBoard'],
  [/^significant-influence-or-control/, 'otherInfluenceOrControl'],
  [/^(part-)?right-to-share-surplus-assets/, 'rightsToSurplusAssetsOnDissolution'],
];

/** One PSC nature of control as a BODS interest, or undefined when the code is not known. */
export function natureToInterest(code: string, start?: string, end?: string): Interest | undefined {
  const type = NATURE_TYPES.find(([re]) => re.test(code))?.[1];
  if (!type) return undefined;
  let share: Interest['share'];
  const band = /(\d+)-to-(\d+)-percent/.exec(code);
  // Companies House's bands (PSC data, "natures of control"): 25-to-50 is "more than 25% but not more
  // than 50%", 50-to-75 "more than 50% but less than 75%", 75-to-100 "75% or more".
  if (band) {
    const [min, max] = [Number(band[1]), Number(band[2])];
    share = { min, max, minExclusive: min !== 75, maxExclusive: max === 75 };
  } else if (/more-than-25-percent/.test(code)) share = { min: 25, max: 100, minExclusive: true, maxExclusive: false };
  return {
    type,
    directOrIndirect: 'unknown',
    beneficialOwnershipOrControl: true,
    ...(share ? { share } : {}),
    ...(start ? { startDate: start } : {}),
    ...(end ? { endDate: end } : {}),
  };
}

const selfId = (d: Record<string, unknown>): string | undefined => {
  const self = str(obj(d['links'])['self']);
  return self ? self.split('/').filter(Boolean).pop() : str(d['etag']);
};

function personName(d: Record<string, unknown>): string | undefined {
  const n = obj(d['name_elements']);
  const parts = ['title', 'forename', 'middle_name', 'surname'].map((k) => str(n[k])).filter(Boolean);
  return str(d['name']) ?? (parts.length ? parts.join(' ') : undefined);
}

async function* psc(path: string, stats: ParseStats): AsyncGenerator<RegistryRecord> {
  const file = fileLabel(path);
  for await (const { line, value } of jsonItems(path)) {
    yield* pscRecords(value, stats, file, line);
  }
}

/** The records of one PSC snapshot line, stream record or API item (`{ company_number, data }`). */
export function* pscRecords(value: unknown, stats: ParseStats, file: string, line: number): Generator<RegistryRecord> {
  {
    stats.read++;
    const rec = obj(value);
    const d = obj(rec['data']);
    const kind = str(d['kind']) ?? '';
    if (kind.startsWith('totals#')) {
      const at = day(d['generated_at']);
      if (at) stats.publishDate = at;
      skip(stats, 'totals line');
      return;
    }
    const num = str(rec['company_number']);
    const known =
      /^(individual|corporate-entity|legal-person|super-secure)-(person-with-significant-control|beneficial-owner)$/.test(kind) ||
      kind === 'persons-with-significant-control-statement' ||
      kind === 'exemptions';
    if (!known) {
      skip(stats, `unknown kind ${kind || '(none)'}`);
      return;
    }
    if (!num) throw new RegistryFileError(file, line, `a ${kind} record without company_number`);
    const subject = companyNumber(num);
    const id = selfId(d) ?? `${subject}:${line}`;
    const start = day(d['notified_on']),
      end = day(d['ceased_on']);
    if (kind === 'persons-with-significant-control-statement') {
      const statement = str(d['statement']) ?? 'unknown';
      yield {
        kind: 'exception',
        ref: `statement:${id}`,
        subject,
        category: 'psc_statement',
        reason: statement,
        ...(start ? { startDate: start } : {}),
        ...(end ? { endDate: end } : {}),
      };
      return;
    }
    if (kind === 'exemptions') {
      for (const [key, ex] of Object.entries(obj(d['exemptions']))) {
        const items = Array.isArray(obj(ex)['items']) ? (obj(ex)['items'] as unknown[]).map(obj) : [];
        const last = items[items.length - 1] ?? {};
        const from = day(last['exempt_from']),
          to = day(last['exempt_to']);
        yield {
          kind: 'exception',
          ref: `exemption:${subject}:${key}`,
          subject,
          category: 'psc_exemption',
          reason: str(obj(ex)['exemption_type']) ?? key,
          ...(from ? { startDate: from } : {}),
          ...(to ? { endDate: to } : {}),
        };
      }
      return;
    }
    const interests: Interest[] = [];
    for (const code of Array.isArray(d['natures_of_control']) ? (d['natures_of_control'] as unknown[]) : []) {
      const i = typeof code === 'string' ? natureToInterest(code, start, end) : undefined;
      if (i) interests.push(i);
      else skip(stats, `unknown nature of control ${String(code)}`);
    }
    const natures = (Array.isArray(d['natures_of_control']) ? d['natures_of_control'] : []).join(',');
    if (kind.startsWith('super-secure')) {
      yield {
        kind: 'relationship',
        ref: `psc:${id}`,
        subject,
        interestedParty: { unspecifiedReason: 'interestedPartyExemptFromDisclosure', description: 'super-secure person' },
        interests: interests.length
          ? interests
          : [
              {
                type: 'otherInfluenceOrControl',
                directOrIndirect: 'unknown',
                ...(start ? { startDate: start } : {}),
                ...(end ? { endDate: end } : {}),
              },
            ],
        isComponent: false,
        componentRefs: [],
        sourceType: kind,
      };
      return;
    }
    const partyRef = `psc-party:${id}`;
    if (kind.startsWith('individual')) {
      const dob = obj(d['date_of_birth']);
      yield {
        kind: 'person',
        ref: partyRef,
        name: personName(d) ?? 'unnamed person',
        personType: 'knownPerson',
        ...(typeof dob['year'] === 'number' ? { birthYear: dob['year'] } : {}),
        ...(typeof dob['month'] === 'number' ? { birthMonth: dob['month'] } : {}),
        ...(str(d['nationality']) ? { nationality: str(d['nationality']) } : {}),
        ...(str(d['country_of_residence']) ? { countryOfResidence: str(d['country_of_residence']) } : {}),
      };
    } else {
      const ident = obj(d['identification']);
      // A corporate owner registered abroad keeps what identifies it there (number, register, country, the law
      // it is formed under), so it can be matched to another source's record (graph.ts: same_as).
      const country = registeredCountry(str(ident['country_registered']));
      yield {
        kind: 'entity',
        ref: partyRef,
        name: str(d['name']) ?? 'unnamed entity',
        otherNames: [],
        ...(str(ident['registration_number']) ? { registrationNumber: str(ident['registration_number']) } : {}),
        ...(str(ident['place_registered']) ? { registrationAuthority: str(ident['place_registered']) } : {}),
        ...(str(ident['country_registered']) ? { jurisdiction: str(ident['country_registered']) } : {}),
        ...(country ? { country } : {}),
        ...(str(ident['legal_form']) ? { legalForm: str(ident['legal_form']) } : {}),
        ...(str(ident['legal_authority']) ? { legalAuthority: str(ident['legal_authority']) } : {}),
        entityType: kind.startsWith('legal-person') ? 'legalEntity' : 'registeredEntity',
      };
    }
    yield {
      kind: 'relationship',
      ref: `psc:${id}`,
      subject,
      interestedParty: partyRef,
      interests,
      isComponent: false,
      componentRefs: [],
      sourceType: natures || kind,
      ...(end ? { status: 'ceased' } : {}),
    };
  }
}

export const companiesHouseFormats: Record<string, RegistryFormat> = {
  'gb-coh-companies-csv': { source: 'gb_coh', description: 'Companies House basic company data (CSV)', parse: companiesCsv },
  'gb-coh-companies-json': { source: 'gb_coh', description: 'Companies House basic company data rows as JSON', parse: companiesJson },
  'gb-coh-psc': { source: 'gb_coh', description: 'Companies House PSC snapshot (JSON lines) or stream records', parse: psc },
};
