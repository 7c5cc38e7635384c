// The domain shape every registry file is read into. Each source's raw rows stay private to its own file;
// what leaves a parser is one of these records, already in BODS terms (interests, shares as ranges).

import type { Interest } from '../../engines/ownership/index.js';

export type RegistrySourceName = 'gleif' | 'gb_coh' | 'bods';

export interface RegistryAddress {
  lines: string[];
  city?: string;
  region?: string;
  postalCode?: string;
  country?: string;
}

/** Where a record came from inside its file (BODS statements have their own ids and dates). */
interface Origin {
  statementId?: string;
  statementDate?: string;
  /** BODS recordStatus: a `closed` record ends what the earlier statements said. */
  recordStatus?: string;
}

export interface EntityRecord extends Origin {
  kind: 'entity';
  /** Reference inside the source: an LEI, a company number, a BODS recordId. */
  ref: string;
  name: string;
  otherNames: string[];
  lei?: string;
  registrationNumber?: string;
  /** GLEIF registration-authority code (RA000585) or a register's name. */
  registrationAuthority?: string;
  jurisdiction?: string;
  country?: string;
  legalForm?: string;
  /** The law an entity is formed under (a PSC's identification.legal_authority: "Companies Act 2006", …). */
  legalAuthority?: string;
  /** Entity status: active, inactive, dissolved, … (lower case). */
  status?: string;
  /** LEI registration status (ISSUED, LAPSED, …) where the source has one. */
  registrationStatus?: string;
  incorporationDate?: string;
  dissolutionDate?: string;
  address?: RegistryAddress;
  /** BODS entityType.type. */
  entityType?: string;
  listed?: boolean;
  unspecifiedReason?: string;
}

export interface PersonRecord extends Origin {
  kind: 'person';
  ref: string;
  name: string;
  /** BODS personType: knownPerson, anonymousPerson, unknownPerson. */
  personType: string;
  birthYear?: number;
  birthMonth?: number;
  nationality?: string;
  countryOfResidence?: string;
  unspecifiedReason?: string;
}

export interface RelationshipRecord extends Origin {
  kind: 'relationship';
  ref: string;
  /** Ref of the owned entity. */
  subject: string;
  /** Ref of the owner, or an unspecified party with its reason. */
  interestedParty: string | { unspecifiedReason: string; description?: string };
  interests: Interest[];
  isComponent: boolean;
  componentRefs: string[];
  /** The source's own relationship type (IS_DIRECTLY_CONSOLIDATED_BY, a PSC nature of control, …). */
  sourceType?: string;
  status?: string;
  /** A delta file withdraws the record (GLEIF's deletion extension): it stops applying, on this day if given. */
  withdrawn?: { on?: string };
}

/** "No parent reported, because …" (GLEIF repex) or "no registrable person" (PSC statements, exemptions). */
export interface ExceptionRecord {
  kind: 'exception';
  ref: string;
  subject: string;
  category: string;
  reason: string;
  reference?: string;
  startDate?: string;
  endDate?: string;
  /** A delta file withdraws the exception (GLEIF's deletion extension): it stops applying, on this day if given. */
  withdrawn?: { on?: string };
}

export type RegistryRecord = EntityRecord | PersonRecord | RelationshipRecord | ExceptionRecord;

export interface ParseStats {
  /** Records read from the file (lines or statements), including skipped ones. */
  read: number;
  /** Skipped records by reason (an unknown PSC kind, a totals line, …). */
  skipped: Record<string, number>;
  /** Publication date the file states (GLEIF meta.goldenCopy.publishDate, PSC totals generated_at). */
  publishDate?: string;
}

export function newStats(): ParseStats {
  return { read: 0, skipped: {} };
}

export function skip(stats: ParseStats, reason: string): void {
  stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
}

/** A registry file that cannot be imported: names the file and the line (1-based) where reading stopped. */
export class RegistryFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: ${problem}`);
    this.name = 'RegistryFileError';
  }
}

/** One registry file format: reads a file as a stream of records, counting what it skipped. */
export interface RegistryFormat {
  source: RegistrySourceName;
  description: string;
  parse(path: string, stats: ParseStats): AsyncIterable<RegistryRecord>;
  /**
   * A full file of this format states every record of one kind the source has (a GLEIF golden copy): what it
   * no longer carries has ended. Formats without it are only ever read as deltas (they add and update).
   */
  fullFileOf?: 'relationship' | 'exception';
}

export const day = (s: unknown): string | undefined => (typeof s === 'string' && s.length >= 10 ? s.slice(0, 10) : undefined);
export const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined);
export const obj = (x: unknown): Record<string, unknown> =>
  x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
