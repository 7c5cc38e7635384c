import type { ListEntity } from '../../engines/screening/types.js';

// The embedded default list: clearly fictitious entries that the sandbox's seeded test subjects hit,
// so integrations can exercise every screening outcome offline. Names are documented in docs/screening.md.

const base = {
  source: 'sandbox' as const,
  nationalities: [] as string[],
  countries: [] as string[],
  addresses: [] as string[],
  identifiers: [],
  birthDates: [],
  programs: ['SANDBOX'],
};

export const SANDBOX_ENTITIES: readonly ListEntity[] = [
  {
    ...base,
    id: 'sandbox:sanctioned-person',
    datasets: ['sanctions'],
    schema: 'person',
    names: [
      { full: 'Sandbox Sanctioned Person', quality: 'strong' },
      { full: 'Сандбокс Санкционный', quality: 'strong' },
      { full: 'Sandy Sanctioned', quality: 'weak' },
    ],
    birthDates: [{ date: '1970-01-01' }],
    gender: 'male',
    identifiers: [{ type: 'passport', value: 'SBX0000001' }],
    remarks: 'Fictitious sandbox entry: a sanctioned individual.',
  },
  {
    ...base,
    id: 'sandbox:sanctioned-company',
    datasets: ['sanctions'],
    schema: 'organization',
    names: [
      { full: 'Sandbox Sanctioned Trading LLC', quality: 'strong' },
      { full: 'Sandbox Trading Company', quality: 'strong' },
    ],
    identifiers: [
      { type: 'registration', value: 'SBX-REG-0001' },
      { type: 'crypto:XBT', value: 'bc1qsandboxsanctionedaddress000000000000' },
    ],
    remarks: 'Fictitious sandbox entry: a sanctioned company with a digital-currency address.',
  },
  {
    ...base,
    id: 'sandbox:sanctioned-vessel',
    datasets: ['sanctions'],
    schema: 'vessel',
    names: [{ full: 'Sandbox Voyager', quality: 'strong' }],
    identifiers: [{ type: 'imo', value: '0000001' }],
    remarks: 'Fictitious sandbox entry: a sanctioned vessel.',
  },
  {
    ...base,
    id: 'sandbox:pep',
    datasets: ['pep'],
    schema: 'person',
    names: [{ full: 'Sandbox Politically Exposed', quality: 'strong' }],
    birthDates: [{ year: 1965 }],
    programs: ['SANDBOX-PEP'],
    remarks: 'Fictitious sandbox entry: a politically exposed person (minister of sandbox affairs).',
  },
  {
    ...base,
    id: 'sandbox:adverse-media',
    datasets: ['adverse_media'],
    schema: 'person',
    names: [{ full: 'Sandbox Adverse Media', quality: 'strong' }],
    birthDates: [{ from: '1980-01-01', to: '1982-12-31' }],
    programs: ['SANDBOX-CRIME'],
    remarks: 'Fictitious sandbox entry: named in (fictitious) fraud reporting.',
  },
];

/** The embedded default list; returns copies so callers cannot alter the shared entries. */
export function sandboxList(): ListEntity[] {
  return structuredClone(SANDBOX_ENTITIES) as ListEntity[];
}
