// IVMS101 (2020) data model as exchanged in JSON by TRP and TRISA (encoding/json style, camelCase).
// Field names follow the standard; the npm `ivms101` package's legacy types were used as a cross-check only.

export type NaturalPersonNameTypeCode = 'ALIA' | 'BIRT' | 'MAID' | 'LEGL' | 'MISC';
export type LegalPersonNameTypeCode = 'LEGL' | 'SHRT' | 'TRAD';
export type AddressTypeCode = 'HOME' | 'BIZZ' | 'GEOG';
export type NationalIdentifierTypeCode = 'ARNU' | 'CCPT' | 'RAID' | 'DRLC' | 'FIIN' | 'TXID' | 'SOCS' | 'IDCD' | 'LEIX' | 'MISC';
export type TransliterationMethodCode =
  'arab' | 'aran' | 'armn' | 'cyrl' | 'deva' | 'geor' | 'grek' | 'hani' | 'hebr' | 'kana' | 'kore' | 'thai' | 'othr';

export interface NaturalPersonNameId {
  primaryIdentifier: string;
  secondaryIdentifier?: string;
  nameIdentifierType: NaturalPersonNameTypeCode;
}
export interface NaturalPersonName {
  nameIdentifier: NaturalPersonNameId[];
  localNameIdentifier?: NaturalPersonNameId[];
  phoneticNameIdentifier?: NaturalPersonNameId[];
}
export interface LegalPersonNameId {
  legalPersonName: string;
  legalPersonNameIdentifierType: LegalPersonNameTypeCode;
}
export interface LegalPersonName {
  nameIdentifier: LegalPersonNameId[];
  localNameIdentifier?: LegalPersonNameId[];
  phoneticNameIdentifier?: LegalPersonNameId[];
}
export interface Address {
  addressType: AddressTypeCode;
  department?: string;
  subDepartment?: string;
  streetName?: string;
  buildingNumber?: string;
  buildingName?: string;
  floor?: string;
  postBox?: string;
  room?: string;
  postCode?: string;
  townName?: string;
  townLocationName?: string;
  districtName?: string;
  countrySubDivision?: string;
  addressLine?: string[];
  country: string;
}
export interface NationalIdentification {
  nationalIdentifier: string;
  nationalIdentifierType: NationalIdentifierTypeCode;
  countryOfIssue?: string;
  registrationAuthority?: string;
}
export interface DateAndPlaceOfBirth {
  dateOfBirth: string;
  placeOfBirth: string;
}
export interface NaturalPerson {
  name: NaturalPersonName;
  geographicAddress?: Address[];
  nationalIdentification?: NationalIdentification;
  customerIdentification?: string;
  dateAndPlaceOfBirth?: DateAndPlaceOfBirth;
  countryOfResidence?: string;
}
export interface LegalPerson {
  name: LegalPersonName;
  geographicAddress?: Address[];
  customerNumber?: string;
  nationalIdentification?: NationalIdentification;
  countryOfRegistration?: string;
}
/** Exactly one of the two (checked by the semantic rules, reported as person_one_of). */
export interface Person {
  naturalPerson?: NaturalPerson;
  legalPerson?: LegalPerson;
}
export interface Originator {
  originatorPersons: Person[];
  accountNumber?: string[];
}
export interface Beneficiary {
  beneficiaryPersons: Person[];
  accountNumber?: string[];
}
export interface OriginatingVasp {
  originatingVASP: Person;
}
export interface BeneficiaryVasp {
  beneficiaryVASP?: Person;
}
export interface IntermediaryVasp {
  intermediaryVASP: Person;
  sequence: number;
}
export interface TransferPath {
  transferPath: IntermediaryVasp[];
}
export interface PayloadMetadata {
  transliterationMethod?: TransliterationMethodCode[];
}
export interface IdentityPayload {
  originator?: Originator;
  beneficiary?: Beneficiary;
  originatingVASP?: OriginatingVasp;
  beneficiaryVASP?: BeneficiaryVasp;
  transferPath?: TransferPath;
  payloadMetadata?: PayloadMetadata;
}

/** Which IVMS101 element a document is, so fragments (one address, one person) can be validated alone. */
export type Ivms101Kind = 'identityPayload' | 'person' | 'naturalPerson' | 'legalPerson' | 'address' | 'nationalIdentification';

export interface Ivms101Issue {
  /** C1 … C12 for the standard's constraints; schema / person_one_of / registration_authority_unknown otherwise. */
  code: string;
  /** Dotted path with indexes, e.g. originator.originatorPersons[0].naturalPerson.name ('' for the root). */
  path: string;
  message: string;
}

export interface Ivms101Result {
  valid: boolean;
  errors: Ivms101Issue[];
  /** Findings that do not invalidate the payload under the chosen profile (see validateIvms101). */
  warnings: Ivms101Issue[];
}
