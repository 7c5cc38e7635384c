import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { UrlPolicy } from '../../platform/net-guard.js';
import { emitAudit } from '../../platform/audit.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import { decodeTravelAddress, isValidLei, TravelAddressError } from '../../engines/travel-rule/index.js';
import type { ScreeningIndexCache } from '../checks/index.js';
import { checkPeerUrl } from './ivms.js';
import { counterpartyRows, toCounterparty, type CounterpartyValues } from './repository.js';
import type { Counterparty, CreateCounterparty, UpdateCounterparty } from './schemas.js';
import { screenNames } from './screen-message.js';

export interface CounterpartyDeps {
  sealer: Sealer;
  production: UrlPolicy;
  cache: ScreeningIndexCache;
}

/** Field checks the schema cannot say: LEI check digits, travel addresses, protocol endpoints. */
function checkFields(ctx: RequestContext, deps: CounterpartyDeps, input: UpdateCounterparty, prefix = ''): void {
  if (input.lei !== undefined && !isValidLei(input.lei))
    throw invalid(`${prefix}lei`, 'The LEI check digits (ISO 17442, mod 97) do not match.');
  (input.travel_addresses ?? []).forEach((ta, i) => checkTravelAddress(ta, `${prefix}travel_addresses[${i}]`));
  (input.protocols ?? []).forEach((p, i) => {
    const f = `${prefix}protocols[${i}]`;
    if (p.protocol === 'trp' && !p.endpoint && !p.travel_address) throw invalid(f, 'A TRP entry needs an endpoint or a travel_address.');
    if (p.protocol === 'email' && !p.email) throw invalid(`${f}.email`, 'An email entry needs an email address.');
    if (p.endpoint) checkPeerUrl(p.endpoint, `${f}.endpoint`, ctx.environment, deps.production);
    if (p.travel_address) checkTravelAddress(p.travel_address, `${f}.travel_address`);
  });
}

function checkTravelAddress(ta: string, field: string): void {
  try {
    decodeTravelAddress(ta);
  } catch (err) {
    if (err instanceof TravelAddressError) throw invalid(field, err.message);
    throw err;
  }
}

/** The legal name against the environment's lists, outside any transaction. */
async function screenLegalName(ctx: RequestContext, deps: CounterpartyDeps, legalName: string) {
  const r = await screenNames(ctx, deps.sealer, deps.cache, [{ role: 'counterparty', name: legalName, entity_type: 'organization' }]);
  return { ...r, addresses: [], screened_at: new Date().toISOString() };
}

const values = (i: UpdateCounterparty): Partial<CounterpartyValues> => {
  const v: Partial<CounterpartyValues> = {};
  if (i.name !== undefined) v.name = i.name;
  if (i.legal_name !== undefined) v.legal_name = i.legal_name;
  if (i.lei !== undefined) v.lei = i.lei;
  if (i.country !== undefined) v.country = i.country;
  if (i.website !== undefined) v.website = i.website;
  if (i.domains !== undefined) v.domains = [...new Set(i.domains.map((d) => d.toLowerCase()))];
  if (i.travel_addresses !== undefined) v.travel_addresses = i.travel_addresses;
  if (i.protocols !== undefined) v.protocols = i.protocols;
  if (i.due_diligence_status !== undefined) v.due_diligence_status = i.due_diligence_status;
  if (i.due_diligence_notes !== undefined) v.due_diligence_notes = i.due_diligence_notes;
  return v;
};

/** POST /v1/travel-rule/counterparties (and each entry of an import): checks, screens the legal name, stores. */
export async function createCounterparty({
  ctx,
  deps,
  input,
  source = 'api',
}: {
  ctx: RequestContext;
  deps: CounterpartyDeps;
  input: CreateCounterparty;
  source?: 'api' | 'import';
}): Promise<Counterparty> {
  checkFields(ctx, deps, input);
  const screening = await screenLegalName(ctx, deps, input.legal_name);
  return withTransaction(ctx, async (tx) => {
    if (input.lei && (await counterpartyRows.byLei(tx, ctx, input.lei))) throw conflict('A counterparty with this LEI exists.', 'lei');
    const row = await counterpartyRows.insert(tx, ctx, newId('counterparty'), {
      name: input.name,
      legal_name: input.legal_name,
      lei: null,
      country: null,
      website: null,
      domains: [],
      travel_addresses: [],
      protocols: [],
      due_diligence_status: 'unknown',
      due_diligence_notes: null,
      ...values(input),
      screening,
      screened_at: new Date(screening.screened_at),
      source,
    } as CounterpartyValues);
    await emitAudit(tx, ctx, {
      action: 'travel_rule.counterparty.created',
      resourceType: 'counterparty',
      resourceId: row.id,
      metadata: { name: row.name, lei: row.lei, source, screening_status: screening.status },
    });
    return toCounterparty(row);
  });
}

/** PATCH /v1/travel-rule/counterparties/{id}: a new legal name is screened again. */
export async function updateCounterparty({
  ctx,
  deps,
  id,
  input,
}: {
  ctx: RequestContext;
  deps: CounterpartyDeps;
  id: string;
  input: UpdateCounterparty;
}): Promise<Counterparty> {
  const before = await counterpartyRows.get(ctx.db, ctx, id);
  if (!before) throw notFound('counterparty', 'id');
  checkFields(ctx, deps, input);
  const screening =
    input.legal_name !== undefined && input.legal_name !== before.legal_name ? await screenLegalName(ctx, deps, input.legal_name) : null;
  return withTransaction(ctx, async (tx) => {
    if (input.lei && input.lei !== before.lei && (await counterpartyRows.byLei(tx, ctx, input.lei)))
      throw conflict('A counterparty with this LEI exists.', 'lei');
    const v = values(input);
    const row = await counterpartyRows.update(tx, ctx, id, {
      ...v,
      ...(screening ? { screening, screened_at: new Date(screening.screened_at) } : {}),
    });
    if (!row) throw notFound('counterparty', 'id');
    const diff = Object.fromEntries(
      Object.keys(v).map((k) => [
        k,
        { before: (before as unknown as Record<string, unknown>)[k], after: (row as unknown as Record<string, unknown>)[k] },
      ]),
    );
    await emitAudit(tx, ctx, { action: 'travel_rule.counterparty.updated', resourceType: 'counterparty', resourceId: id, diff });
    return toCounterparty(row);
  });
}

/**
 * `verity travel-rule import-counterparties --account ID --environment E FILE`: a JSON array of
 * counterparties (the API's create body). Every entry is checked first; an entry whose LEI exists is
 * updated instead of duplicated. Returns the ids, in file order.
 */
export async function importCounterparties(
  ctx: RequestContext,
  deps: CounterpartyDeps,
  entries: unknown[],
): Promise<{ created: number; updated: number; ids: string[] }> {
  const ids: string[] = [];
  let created = 0;
  let updated = 0;
  for (const [i, raw] of entries.entries()) {
    const e = raw as CreateCounterparty;
    if (!e || typeof e.name !== 'string' || typeof e.legal_name !== 'string')
      throw invalid(`[${i}]`, 'each entry needs name and legal_name');
    checkFields(ctx, deps, e, `[${i}].`);
  }
  for (const raw of entries) {
    const e = raw as CreateCounterparty;
    const existing = e.lei ? await counterpartyRows.byLei(ctx.db, ctx, e.lei) : null;
    if (existing) {
      ids.push((await updateCounterparty({ ctx, deps, id: existing.id, input: e })).id);
      updated++;
    } else {
      ids.push((await createCounterparty({ ctx, deps, input: e, source: 'import' })).id);
      created++;
    }
  }
  return { created, updated, ids };
}
