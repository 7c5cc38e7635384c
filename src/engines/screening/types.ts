/** Which kind of risk a list entry represents; a request or journey selects any subset. */
export type Dataset = 'sanctions' | 'pep' | 'adverse_media';

/** Where a list entry came from. `custom` is an operator's own list, `sandbox` the built-in test list. */
export type ListSourceName = 'ofac_sdn' | 'ofac_cons' | 'un' | 'uk_fcdo' | 'eu_fsf' | 'opensanctions' | 'custom' | 'sandbox';

export type EntitySchema = 'person' | 'organization' | 'vessel' | 'aircraft' | 'unknown';

/** strong: a primary name or good-quality alias; weak: a low-quality alias (OFAC "weak a.k.a.", UN quality "Low"). */
export type NameQuality = 'strong' | 'weak';

export interface ListName {
  full: string;
  quality: NameQuality;
  /** ISO 15924 script hint when the list states it or it is obvious (e.g. `Cyrl`). */
  script?: string;
}

/** A date of birth as precise as the list gives it: a full date, a year, or a range. */
export interface BirthDate {
  date?: string; // YYYY-MM-DD
  year?: number;
  from?: string; // YYYY-MM-DD
  to?: string; // YYYY-MM-DD
}

export interface Identifier {
  /** e.g. passport, national_id, tax_id, imo, mmsi, call_sign, lei, registration, email, crypto:XBT */
  type: string;
  value: string;
  country?: string;
}

export interface ListEntity {
  /** Stable within the source, e.g. `ofac-sdn:12345`. */
  id: string;
  source: ListSourceName;
  datasets: Dataset[];
  schema: EntitySchema;
  names: ListName[];
  birthDates: BirthDate[];
  /** ISO 3166-1 alpha-2 codes of nationality or citizenship. */
  nationalities: string[];
  /** ISO 3166-1 alpha-2 codes of other links: residence, registration, flag, address. */
  countries: string[];
  gender?: 'male' | 'female';
  addresses: string[];
  identifiers: Identifier[];
  programs: string[];
  listedAt?: string;
  sourceUrl?: string;
  remarks?: string;
}

/** A versioned import of one source. A snapshot is only ever replaced by a validated newer one. */
export interface ListSnapshot {
  source: ListSourceName | string;
  /** Content hash of all entities: equal versions mean equal content. */
  version: string;
  fetchedAt: string;
  entities: ListEntity[];
}

/** The subject being screened. Only `name` is required; every other field sharpens or contradicts a hit. */
export interface ScreeningQuery {
  name: string;
  /** Other names of the subject (maiden name, former company name, name in original script). */
  aliases?: string[];
  schema?: EntitySchema;
  /** YYYY-MM-DD, YYYY-MM or YYYY. */
  birthDate?: string;
  countries?: string[];
  gender?: 'male' | 'female';
  identifiers?: Identifier[];
}

export interface ScreenOptions {
  /** Minimum score for a hit to be reported (default DEFAULT_THRESHOLD). */
  threshold?: number;
  /** Score at or above which the decision is `match` (default DEFAULT_MATCH_THRESHOLD). */
  matchThreshold?: number;
  datasets?: readonly Dataset[];
  sources?: readonly string[];
  /** Maximum number of hits returned (default 10). */
  limit?: number;
  /** Entity ids the operator cleared for this subject: such hits are suppressed (and counted). */
  allow?: ReadonlySet<string>;
  /** Entity ids the operator blocked for this subject: reported as a match whatever the score. */
  block?: ReadonlySet<string>;
}

export type Decision = 'no_match' | 'potential_match' | 'match';

export interface ScoreComponents {
  /** Best name similarity 0..1 (after the weak-alias discount). */
  name: number;
  /** Which list name gave the best similarity. */
  matchedName: string;
  nameQuality: NameQuality;
  birthDate?: 'exact' | 'year' | 'within_range' | 'one_year' | 'contradicts' | 'missing';
  country?: 'match' | 'contradicts' | 'missing';
  schema?: 'match' | 'contradicts' | 'missing';
  gender?: 'match' | 'contradicts' | 'missing';
  identifier?: 'match' | 'contradicts' | 'missing';
}

export interface Explanation {
  matched: string[];
  contradicted: string[];
  components: ScoreComponents;
}

export interface Hit {
  entityId: string;
  source: string;
  schema: EntitySchema;
  names: string[];
  datasets: Dataset[];
  programs: string[];
  score: number;
  /** true when a block entry forced this hit. */
  blocked?: boolean;
  explanation: Explanation;
}

export interface ScreeningResult {
  decision: Decision;
  hits: Hit[];
  /** Hits dropped because of an allow entry. */
  suppressed: string[];
  /** Entities fully scored for this query (the rest of the index was never touched). */
  candidatesExamined: number;
  threshold: number;
}
