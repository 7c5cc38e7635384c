// The IVMS101 (2020) constraints a schema cannot express, checked where the standard puts them.
// C1 and C4 bind the ORIGINATOR only: the npm `ivms101` package applies them to every person and so
// rejects valid TRP inquiries whose beneficiary carries only a name (research notes §4.2).
import { isIvmsCountryCode } from './countries.js';
import type {
  Address,
  IdentityPayload,
  Ivms101Issue,
  LegalPerson,
  NationalIdentification,
  NaturalPerson,
  Person,
} from './ivms101-types.js';
import { isValidLei } from './lei.js';

export interface RuleContext {
  registrationAuthorities: ReadonlySet<string>;
  /** Today as YYYY-MM-DD (C2 compares dates of birth against it). */
  today: string;
  issues: Ivms101Issue[];
}

const at = (path: string, child: string) => (path === '' ? child : `${path}.${child}`);
const add = (ctx: RuleContext, code: string, path: string, message: string) => ctx.issues.push({ code, path, message });

function country(ctx: RuleContext, value: string | undefined, path: string): void {
  if (value !== undefined && !isIvmsCountryCode(value)) {
    add(ctx, 'C3', path, `${value} is not an ISO 3166-1 alpha-2 country code (or XX)`);
  }
}

export function checkAddress(ctx: RuleContext, a: Address, path: string): void {
  const hasLine = (a.addressLine?.length ?? 0) > 0;
  const hasStreet = a.streetName !== undefined && (a.buildingName !== undefined || a.buildingNumber !== undefined);
  if (!hasLine && !hasStreet) {
    add(ctx, 'C8', path, 'an address needs addressLine, or streetName with buildingName or buildingNumber');
  }
  country(ctx, a.country, at(path, 'country'));
}

export function checkNationalIdentification(
  ctx: RuleContext,
  id: NationalIdentification,
  path: string,
  holder: 'natural' | 'legal' | 'unknown',
): void {
  country(ctx, id.countryOfIssue, at(path, 'countryOfIssue'));
  const ra = id.registrationAuthority;
  if (ra !== undefined && !ctx.registrationAuthorities.has(ra)) {
    add(ctx, 'C10', at(path, 'registrationAuthority'), `${ra} is not on the GLEIF registration authorities list`);
  }
  if (id.nationalIdentifierType === 'LEIX' && !isValidLei(id.nationalIdentifier)) {
    add(ctx, 'C11', at(path, 'nationalIdentifier'), `${id.nationalIdentifier} is not a valid ISO 17442 LEI (check digits)`);
  }
  if (holder !== 'legal') return;
  if (!['RAID', 'MISC', 'LEIX', 'TXID'].includes(id.nationalIdentifierType)) {
    add(ctx, 'C7', at(path, 'nationalIdentifierType'), 'a legal person is identified by RAID, MISC, LEIX or TXID');
  }
  if (id.countryOfIssue !== undefined) {
    add(ctx, 'C9', at(path, 'countryOfIssue'), 'a legal person national identification has no countryOfIssue');
  }
  if (id.nationalIdentifierType !== 'LEIX' && ra === undefined) {
    add(ctx, 'C9', at(path, 'registrationAuthority'), 'required for a legal person unless the identifier is an LEI');
  }
}

export function checkNaturalPerson(ctx: RuleContext, p: NaturalPerson, path: string, originator: boolean): void {
  if (!p.name.nameIdentifier.some((n) => n.nameIdentifierType === 'LEGL')) {
    add(ctx, 'C6', at(path, 'name.nameIdentifier'), 'a natural person needs a name of type LEGL');
  }
  p.geographicAddress?.forEach((a, i) => checkAddress(ctx, a, at(path, `geographicAddress[${i}]`)));
  if (p.nationalIdentification) {
    checkNationalIdentification(ctx, p.nationalIdentification, at(path, 'nationalIdentification'), 'natural');
  }
  const dob = p.dateAndPlaceOfBirth?.dateOfBirth;
  if (dob !== undefined && !(dob < ctx.today)) {
    add(ctx, 'C2', at(path, 'dateAndPlaceOfBirth.dateOfBirth'), 'the date of birth must be in the past');
  }
  country(ctx, p.countryOfResidence, at(path, 'countryOfResidence'));
  // The standard qualifies the address as addressType GEOG; TRISA and 21 Analytics accept any address, as we do.
  if (
    originator &&
    (p.geographicAddress?.length ?? 0) === 0 &&
    p.customerIdentification === undefined &&
    p.nationalIdentification === undefined &&
    p.dateAndPlaceOfBirth === undefined
  ) {
    add(
      ctx,
      'C1',
      path,
      'an originator natural person needs geographicAddress, customerIdentification, nationalIdentification or dateAndPlaceOfBirth',
    );
  }
}

export function checkLegalPerson(ctx: RuleContext, p: LegalPerson, path: string, originator: boolean): void {
  if (!p.name.nameIdentifier.some((n) => n.legalPersonNameIdentifierType === 'LEGL')) {
    add(ctx, 'C5', at(path, 'name.nameIdentifier'), 'a legal person needs a name of type LEGL');
  }
  p.geographicAddress?.forEach((a, i) => checkAddress(ctx, a, at(path, `geographicAddress[${i}]`)));
  if (p.nationalIdentification) {
    checkNationalIdentification(ctx, p.nationalIdentification, at(path, 'nationalIdentification'), 'legal');
  }
  country(ctx, p.countryOfRegistration, at(path, 'countryOfRegistration'));
  if (originator && (p.geographicAddress?.length ?? 0) === 0 && p.nationalIdentification === undefined && p.customerNumber === undefined) {
    add(ctx, 'C4', path, 'an originator legal person needs geographicAddress, nationalIdentification or customerNumber');
  }
}

export function checkPerson(ctx: RuleContext, p: Person, path: string, originator: boolean): void {
  const natural = p.naturalPerson !== undefined;
  const legal = p.legalPerson !== undefined;
  if (natural === legal) {
    add(
      ctx,
      'person_one_of',
      path,
      natural ? 'a person is a naturalPerson or a legalPerson, never both' : 'a person needs a naturalPerson or a legalPerson',
    );
  }
  if (p.naturalPerson) checkNaturalPerson(ctx, p.naturalPerson, at(path, 'naturalPerson'), originator);
  if (p.legalPerson) checkLegalPerson(ctx, p.legalPerson, at(path, 'legalPerson'), originator);
}

export function checkIdentityPayload(ctx: RuleContext, d: IdentityPayload): void {
  d.originator?.originatorPersons.forEach((p, i) => checkPerson(ctx, p, `originator.originatorPersons[${i}]`, true));
  d.beneficiary?.beneficiaryPersons.forEach((p, i) => checkPerson(ctx, p, `beneficiary.beneficiaryPersons[${i}]`, false));
  if (d.originatingVASP) checkPerson(ctx, d.originatingVASP.originatingVASP, 'originatingVASP.originatingVASP', false);
  const bv = d.beneficiaryVASP?.beneficiaryVASP;
  if (bv) checkPerson(ctx, bv, 'beneficiaryVASP.beneficiaryVASP', false);
  const seen = new Set<number>();
  d.transferPath?.transferPath.forEach((hop, i) => {
    const path = `transferPath.transferPath[${i}]`;
    if (seen.has(hop.sequence)) add(ctx, 'C12', at(path, 'sequence'), `sequence ${hop.sequence} is used twice`);
    seen.add(hop.sequence);
    checkPerson(ctx, hop.intermediaryVASP, at(path, 'intermediaryVASP'), false);
  });
}
