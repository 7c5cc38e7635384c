import { invalid } from '../../platform/errors.js';
import { checkDestinationUrl, type UrlPolicy } from '../../platform/net-guard.js';
import type { Environment } from '../../platform/context.js';
import { normalizeIvms101, validateIvms101, type IdentityPayload, type Person } from '../../engines/travel-rule/index.js';

/**
 * Validates an IVMS101 payload; the first error is a 400 naming its path under `field`
 * (ivms101.originator.originatorPersons[0].naturalPerson.name) with the constraint code and reason.
 * strict for what we send; lenient (LEI check digits, countryOfIssue on a legal person as warnings) for
 * what a counterparty sent us and we only record.
 */
export function checkIvms101(
  value: unknown,
  field: string,
  profile: 'strict' | 'lenient',
): { payload: IdentityPayload; warnings: string[] } {
  const normalized = profile === 'lenient' ? normalizeIvms101(value) : { value, changes: [] as string[] };
  const r = validateIvms101(normalized.value, { profile });
  if (!r.valid) {
    const e = r.errors[0]!;
    throw invalid(
      e.path ? `${field}.${e.path}` : field,
      `IVMS101 ${e.code}: ${e.message}${r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : ''}`,
    );
  }
  return {
    payload: normalized.value as IdentityPayload,
    warnings: [...normalized.changes.map((c) => `normalised ${c}`), ...r.warnings.map((w) => `${w.code} ${w.path}: ${w.message}`)],
  };
}

/** A person's display name: the legal (LEGL) name first, "given family" for a natural person. */
export function personName(p: Person | undefined): string | null {
  if (!p) return null;
  if (p.naturalPerson) {
    const ids = p.naturalPerson.name?.nameIdentifier ?? [];
    const n = ids.find((i) => i.nameIdentifierType === 'LEGL') ?? ids[0];
    return n ? [n.secondaryIdentifier, n.primaryIdentifier].filter(Boolean).join(' ') : null;
  }
  const ids = p.legalPerson?.name?.nameIdentifier ?? [];
  return (ids.find((i) => i.legalPersonNameIdentifierType === 'LEGL') ?? ids[0])?.legalPersonName ?? null;
}

export const originatorName = (p: IdentityPayload) => personName(p.originator?.originatorPersons?.[0]);
export const beneficiaryName = (p: IdentityPayload) => personName(p.beneficiary?.beneficiaryPersons?.[0]);

/** Every name to screen on a received payload, with its role and entity type. */
export function namesToScreen(p: IdentityPayload): { role: string; name: string; entity_type: 'person' | 'organization' }[] {
  const out: { role: string; name: string; entity_type: 'person' | 'organization' }[] = [];
  for (const person of p.originator?.originatorPersons ?? []) {
    const name = personName(person);
    if (name) out.push({ role: 'originator', name, entity_type: person.naturalPerson ? 'person' : 'organization' });
  }
  const vasp = personName(p.originatingVASP?.originatingVASP);
  if (vasp) out.push({ role: 'originating_vasp', name: vasp, entity_type: 'organization' });
  return out;
}

/** Sandbox may reach http and private networks (a local peer); production follows the operator's webhook policy. */
export function peerPolicy(environment: Environment, production: UrlPolicy): UrlPolicy {
  return environment === 'sandbox' ? { requireHttps: false, allowPrivateNetworks: true } : production;
}

export function checkPeerUrl(url: string, field: string, environment: Environment, production: UrlPolicy): void {
  const problem = checkDestinationUrl(url, peerPolicy(environment, production));
  if (problem) throw invalid(field, problem.replace(/^url/, field));
}
