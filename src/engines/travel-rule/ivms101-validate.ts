// IVMS101 validation: our JSON Schema first, then the standard's constraints with readable paths.
import type {
  Address,
  IdentityPayload,
  Ivms101Issue,
  Ivms101Kind,
  Ivms101Result,
  LegalPerson,
  NationalIdentification,
  NaturalPerson,
  Person,
} from './ivms101-types.js';
import {
  checkAddress,
  checkIdentityPayload,
  checkLegalPerson,
  checkNationalIdentification,
  checkNaturalPerson,
  checkPerson,
  type RuleContext,
} from './ivms101-rules.js';
import { schemaIssues } from './ivms101-schema.js';
import { GLEIF_REGISTRATION_AUTHORITIES } from './registration-authorities.js';

export type Ivms101Profile = 'strict' | 'lenient';

export interface Ivms101Options {
  /** Which element the value is; default the whole identity payload. */
  kind?: Ivms101Kind;
  /**
   * strict (default, for what we send): every constraint is an error.
   * lenient (for what a counterparty sends us): LEI check digits (C11) and a countryOfIssue on a legal
   * person's identifier (C9) become warnings. The TRISA reference implementation checks neither, its own
   * fixtures break both, and refusing a transfer over them would only push the counterparty to email.
   */
  profile?: Ivms101Profile;
  /** Registration authority codes accepted by C10; default the GLEIF list shipped with the engine. */
  registrationAuthorities?: ReadonlySet<string>;
  /** For a lone person / naturalPerson / legalPerson: apply the originator-only constraints C1 and C4. */
  asOriginator?: boolean;
  /** Reference date for C2 (dates of birth in the past), YYYY-MM-DD; default today (UTC). */
  today?: string;
}

function isLenientOnly(issue: Ivms101Issue): boolean {
  return issue.code === 'C11' || (issue.code === 'C9' && issue.path.endsWith('countryOfIssue'));
}

/** Validate an IVMS101 2020 document (or one of its elements); business outcome as data, never a throw. */
export function validateIvms101(value: unknown, options: Ivms101Options = {}): Ivms101Result {
  const kind = options.kind ?? 'identityPayload';
  const schemaErrors = schemaIssues(value, kind);
  // The rules assume the schema's shapes, so they only run on a schema-valid document.
  if (schemaErrors.length > 0) return { valid: false, errors: schemaErrors, warnings: [] };

  const ctx: RuleContext = {
    registrationAuthorities: options.registrationAuthorities ?? GLEIF_REGISTRATION_AUTHORITIES,
    today: options.today ?? new Date().toISOString().slice(0, 10),
    issues: [],
  };
  const originator = options.asOriginator === true;
  switch (kind) {
    case 'identityPayload':
      checkIdentityPayload(ctx, value as IdentityPayload);
      break;
    case 'person':
      checkPerson(ctx, value as Person, '', originator);
      break;
    case 'naturalPerson':
      checkNaturalPerson(ctx, value as NaturalPerson, '', originator);
      break;
    case 'legalPerson':
      checkLegalPerson(ctx, value as LegalPerson, '', originator);
      break;
    case 'address':
      checkAddress(ctx, value as Address, '');
      break;
    case 'nationalIdentification':
      checkNationalIdentification(ctx, value as NationalIdentification, '', 'unknown');
      break;
  }
  const lenient = options.profile === 'lenient';
  const errors = ctx.issues.filter((i) => !(lenient && isLenientOnly(i)));
  const warnings = lenient ? ctx.issues.filter(isLenientOnly) : [];
  return { valid: errors.length === 0, errors, warnings };
}
