import type { Queryable } from '../../platform/db.js';
import type { Environment } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { readsPath, type CompiledRuleSet, type Evaluation, type RuleContextInput } from '../../engines/rules/index.js';
import { businessByReference, type BusinessContextRow } from '../businesses/index.js';
import { checks, isNoListError, RESULT_PURPOSE, type NameScreening } from '../checks/index.js';
import { listMembership } from '../lists/index.js';
import { sessions } from '../verifications/index.js';
import { latestWalletScreening, type WalletRuleContext } from '../wallets/index.js';
import { transactionRows } from './repository.js';
import type { CreateTransaction } from './schemas.js';

type Tenant = { accountId: string; environment: Environment };
type Plain = Record<string, unknown>;
const DAY_MS = 86_400_000;
const LEVEL_RANK: Record<string, number> = { '': 0, low: 1, medium: 2, high: 3, severe: 4 };

export type LoadedContext = Pick<RuleContextInput, 'subject' | 'counterparty' | 'wallet' | 'lists'>;

/**
 * Screens a counterparty name at transaction time (the screening module's screenName, memoised), or
 * undefined when the process has no screening (then only stored screenings are read).
 */
export type ScreenCounterparty = (db: Queryable, name: string, reference: string | undefined) => Promise<NameScreening>;

/**
 * The parts of the rule context that come from other modules, read before the write transaction (no
 * lock held) and only for the paths the evaluated rules read (`requiredContext`): a rule set that reads
 * only `tx` and `agg` costs no query here.
 * - subject: the latest decided verification session of the subject reference (decision, risk band,
 *   country, type), its business record (by reference), whether its latest screening matched a PEP
 *   data set, and the age of the relationship (first session, business record or stored transaction).
 * - counterparty: the request's fields, `internal` (Verity knows the reference as a subject) and
 *   `screening`: the counterparty name screened now against the active lists and the tenant's allow/block
 *   entries (`screen`, memoised per name and list version), or the latest screening Verity holds for the
 *   counterparty reference (a sanctions_pep check, else a business record's screening), the riskier of the two.
 * - wallet: the latest wallet screening of each address in the transaction (crypto.wallet and
 *   counterparty.wallet), the riskiest one.
 * - lists: allow/block list membership of the subject and counterparty references, the counterparty
 *   name, the addresses and the IP address.
 */
export async function loadRuleContext(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  input: CreateTransaction,
  paths: readonly string[],
  at: Date,
  screen?: ScreenCounterparty,
): Promise<LoadedContext> {
  const reads = (field: string) => readsPath(paths, field);
  const [subject, counterparty, wallet, lists] = await Promise.all([
    reads('subject') ? subjectContext(db, t, sealer, input, paths, at) : undefined,
    reads('counterparty') ? counterpartyContext(db, t, sealer, input, paths, screen) : undefined,
    reads('wallet') ? walletContext(db, t, input) : undefined,
    reads('lists') ? listsContext(db, t, sealer, input) : undefined,
  ]);
  const out: LoadedContext = {};
  out.subject = subject ?? { reference: input.subject.reference, type: input.subject.type, country: input.subject.country };
  out.counterparty = counterparty ?? (input.counterparty ? { ...input.counterparty } : undefined);
  if (wallet) out.wallet = wallet;
  if (lists) out.lists = lists;
  return out;
}

function daysBetween(from: Date | null | undefined, to: Date): number {
  return from ? Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS)) : 0;
}

function businessContext(b: BusinessContextRow, at: Date): Plain {
  const d = b.data as Record<string, string | undefined>;
  const inc = d.incorporationDate ? new Date(`${d.incorporationDate}T00:00:00Z`) : null;
  return {
    registered: b.source !== 'manual',
    legal_form: d.legalForm ?? '',
    incorporation_country: d.jurisdiction ?? d.country ?? '',
    industry: d.industry ?? '',
    age_days: inc && Number.isFinite(inc.getTime()) ? daysBetween(inc, at) : 0,
  };
}

async function subjectContext(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  input: CreateTransaction,
  paths: readonly string[],
  at: Date,
): Promise<Plain> {
  const ref = input.subject.reference;
  const reads = (f: string) => readsPath(paths, `subject.${f}`);
  const [standing, business, firstTx, screening] = await Promise.all([
    sessions.standingOf(db, t, ref),
    reads('business') || reads('type') || reads('country') || reads('relationship_days') ? businessByReference(db, t, ref) : undefined,
    reads('relationship_days') ? transactionRows.firstSeen(db, t, ref) : null,
    reads('pep') ? checks.latestOfSubject(db, t, 'sanctions_pep', ref) : null,
  ]);
  const firstSeen = [standing.first_seen, business?.created_at ?? null, firstTx]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  let pep = false;
  if (screening?.result_sealed && screening.status === 'match') {
    const hits = screeningHits(sealer, screening.result_sealed);
    pep = hits.some((h) => (h.datasets ?? []).includes('pep'));
  }
  return {
    reference: ref,
    type: input.subject.type ?? (business ? 'business' : (standing.subject_type ?? '')),
    kyc_decision: standing.decision ?? '',
    risk_band: standing.risk_band ?? '',
    country:
      input.subject.country ??
      standing.subject_country ??
      (business ? (businessContext(business, at).incorporation_country as string) : ''),
    relationship_days: daysBetween(firstSeen, at),
    pep,
    business: business ? businessContext(business, at) : undefined,
  };
}

interface Hit {
  entity_id?: string;
  source?: string;
  names?: string[];
  datasets?: string[];
  score?: number;
  blocked?: boolean;
}

/** The Screening context fields a stored screening's hits give (entity ids, kinds, the readable matches). */
function fromHits(hits: Hit[]): Plain {
  return {
    lists: [...new Set(hits.flatMap((h) => (h.source ? [h.source] : [])))].sort(),
    entity_ids: hits.flatMap((h) => (h.entity_id ? [h.entity_id] : [])),
    datasets: [...new Set(hits.flatMap((h) => [...(h.blocked ? ['blocklist'] : []), ...(h.datasets ?? [])]))].sort(),
    blocked: hits.some((h) => h.blocked === true),
    matches: hits.map((h) => `${h.entity_id ?? ''} "${h.names?.[0] ?? ''}" (${h.source ?? ''}, ${h.score ?? 0})`),
  };
}

function screeningHits(sealer: Sealer, sealed: string): Hit[] {
  const p = JSON.parse(sealer.open(RESULT_PURPOSE, sealed)) as { result?: { hits?: Hit[] } };
  return p.result?.hits ?? [];
}

async function counterpartyContext(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  input: CreateTransaction,
  paths: readonly string[],
  screen: ScreenCounterparty | undefined,
): Promise<Plain | undefined> {
  const c = input.counterparty;
  if (!c) return undefined;
  const out: Plain = { ...c };
  const ref = c.reference;
  const reads = (f: string) => readsPath(paths, `counterparty.${f}`);
  const live = reads('screening') && screen && c.name?.trim() ? liveScreening(db, screen, c.name, ref) : undefined;
  if (!ref) {
    const l = await live;
    if (l) out.screening = l;
    return out;
  }
  const [check, business, standing, firstTx, now] = await Promise.all([
    reads('screening') ? checks.latestOfSubject(db, t, 'sanctions_pep', ref) : null,
    reads('screening') ? businessByReference(db, t, ref) : undefined,
    reads('internal') ? sessions.standingOf(db, t, ref) : null,
    reads('internal') ? transactionRows.firstSeen(db, t, ref) : null,
    live,
  ]);
  out.internal = Boolean(standing?.first_seen || firstTx);
  const businessScreening = business?.screening as
    { screened_at?: string; status?: string; parties?: { score?: number; hits?: Hit[] }[] } | null | undefined;
  const checkAt = check?.completed_at?.getTime() ?? -Infinity;
  const businessAt = businessScreening?.screened_at ? Date.parse(businessScreening.screened_at) : -Infinity;
  if (check && checkAt >= businessAt) {
    const hits = check.result_sealed ? screeningHits(sealer, check.result_sealed) : [];
    out.screening = {
      status: check.status,
      score: check.score ?? 0,
      ...fromHits(hits),
      check_id: check.id,
    };
  } else if (businessScreening?.status) {
    const parties = businessScreening.parties ?? [];
    out.screening = {
      status: businessScreening.status,
      score: Math.max(0, ...parties.map((p) => p.score ?? 0)),
      ...fromHits(parties.flatMap((p) => p.hits ?? [])),
      business_id: business!.id,
    };
  }
  if (now && riskier(now, out.screening as Plain | undefined)) out.screening = now;
  return out;
}

const STATUS_RANK: Record<string, number> = { match: 3, potential_match: 2, no_match: 1, unavailable: 0 };

/** Whether screening a is riskier than b (status, then score); a stored screening wins ties. */
function riskier(a: Plain, b: Plain | undefined): boolean {
  if (!b) return true;
  const d = (STATUS_RANK[a.status as string] ?? 0) - (STATUS_RANK[b.status as string] ?? 0);
  return d > 0 || (d === 0 && Number(a.score ?? 0) > Number(b.score ?? 0));
}

/**
 * The name screened now. When it cannot be (no active list in the environment, or the screening failed) the
 * status is "unavailable" with the reason in `unavailable`: the transaction is still evaluated, and the rules
 * that read the screening without hitting otherwise report `error` (markUnscreened).
 */
async function liveScreening(db: Queryable, screen: ScreenCounterparty, name: string, ref: string | undefined): Promise<Plain> {
  try {
    const s = await screen(db, name, ref);
    return {
      status: s.status,
      score: s.score,
      lists: s.lists,
      entity_ids: s.entity_ids,
      datasets: s.datasets,
      blocked: s.blocked,
      matches: s.matches,
      screened_now: true,
      list_versions: s.list_versions,
    };
  } catch (err) {
    const reason = isNoListError(err) ? 'no active sanctions list in this environment' : `screening failed: ${(err as Error).message}`;
    return { status: 'unavailable', score: 0, screened_now: false, unavailable: reason };
  }
}

/**
 * Rules that read counterparty.screening while the name could not be screened did not really say "no hit":
 * such outcomes (no_hit, or a test rule's silent shadow) become `error` (never blocking; a rule_error alert).
 * A hit stands (a block entry or a wallet still decides it). Returns the evaluation changed in place.
 */
export function markUnscreened(evaluation: Evaluation, compiled: CompiledRuleSet, known: LoadedContext): Evaluation {
  const reason = (known.counterparty?.screening as Plain | undefined)?.unavailable;
  if (typeof reason !== 'string') return evaluation;
  const reads = new Set(compiled.rules.filter((r) => readsPath(r.expression.paths, 'counterparty.screening')).map((r) => r.rule.id));
  for (const o of evaluation.outcomes)
    if (reads.has(o.rule_id) && o.outcome === 'no_hit') {
      o.outcome = 'error';
      o.error = { code: 'screening_unavailable', message: `counterparty.screening: ${reason}` };
    }
  return evaluation;
}

/** The riskiest latest screening among the transaction's addresses (sanctioned, then level, then score). */
async function walletContext(db: Queryable, t: Tenant, input: CreateTransaction): Promise<Plain | undefined> {
  const addresses = [...new Set([input.crypto?.wallet, input.counterparty?.wallet].filter((a): a is string => Boolean(a)))];
  if (addresses.length === 0) return undefined;
  const found = (await Promise.all(addresses.map((a) => latestWalletScreening(db, t, a, input.crypto?.chain)))).filter(
    (w): w is WalletRuleContext => w !== null,
  );
  if (found.length === 0) return { screened: false, address: addresses[0] };
  found.sort(
    (a, b) =>
      Number(b.sanctioned) - Number(a.sanctioned) ||
      (LEVEL_RANK[b.risk] ?? 0) - (LEVEL_RANK[a.risk] ?? 0) ||
      b.score - a.score ||
      Number(b.screened) - Number(a.screened),
  );
  return { ...found[0] };
}

async function listsContext(db: Queryable, t: Tenant, sealer: Sealer, input: CreateTransaction): Promise<Plain> {
  const c = input.counterparty;
  const probes: { kind: string; value: string; role: string }[] = [{ kind: 'subject', value: input.subject.reference, role: 'subject' }];
  if (c?.reference) probes.push({ kind: 'subject', value: c.reference, role: 'counterparty' });
  if (c?.name) probes.push({ kind: 'name', value: c.name, role: 'counterparty' });
  for (const w of [input.crypto?.wallet, c?.wallet]) if (w) probes.push({ kind: 'wallet_address', value: w, role: 'wallet' });
  if (input.ip) probes.push({ kind: 'ip_address', value: input.ip, role: 'ip' });
  const hits = await listMembership(db, t, sealer, probes, input.subject.reference);
  const on = (list: string, role: string) =>
    hits.some((h) => h.list === list && probes.some((p) => p.role === role && p.kind === h.kind && p.value === h.value));
  return {
    subject_allowed: on('allowlist', 'subject'),
    subject_blocked: on('blocklist', 'subject'),
    counterparty_allowed: on('allowlist', 'counterparty'),
    counterparty_blocked: on('blocklist', 'counterparty'),
    wallet_blocked: on('blocklist', 'wallet'),
    ip_blocked: on('blocklist', 'ip'),
    names: [...new Set(hits.map((h) => `${h.list}:${h.kind}`))].sort(),
  };
}
