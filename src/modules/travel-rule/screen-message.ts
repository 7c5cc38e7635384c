import type { Db, Queryable } from '../../platform/db.js';
import { systemContext, type Environment, type RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { enqueueJob, type JobHandler, type JobRow } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import type { IdentityPayload } from '../../engines/travel-rule/index.js';
import { evaluateScreening, type ScreeningIndexCache } from '../checks/index.js';
import type { WalletIndexes } from '../wallets/index.js';
import { raiseAlert } from '../cases/index.js';
import { addressActions, describeOutcome, messageAddresses, screenMessageAddresses } from './address-screening.js';
import { namesToScreen } from './ivms.js';
import { move } from './move.js';
import { messageRows, openIvms, settingsRows } from './repository.js';
import type { TravelRuleMessage } from './schemas.js';

type Screening = NonNullable<TravelRuleMessage['screening']>;
const RANK = { no_match: 0, potential_match: 1, match: 2, error: 3, pending: -1, not_screened: -1 } as const;

export async function enqueueScreening(tx: Queryable, ctx: RequestContext, messageId: string): Promise<void> {
  await enqueueJob(tx, QUEUES.travelRuleScreen, { account_id: ctx.accountId, environment: ctx.environment, message_id: messageId });
}

/** Screens names against the environment's lists (the screening module's face), one result per name. */
export async function screenNames(
  ctx: RequestContext,
  sealer: Sealer,
  cache: ScreeningIndexCache,
  names: { role: string; name: string; entity_type: 'person' | 'organization' }[],
): Promise<Pick<Screening, 'status' | 'names' | 'lists' | 'error'>> {
  const out: Screening['names'] = [];
  const lists = new Map<string, string>();
  try {
    for (const n of names) {
      const r = await evaluateScreening({ ctx, sealer, cache, input: { name: n.name, entity_type: n.entity_type } });
      for (const m of r.model) if (m.name.startsWith('list:')) lists.set(m.name.slice(5), m.version);
      const hits = ((r.result as { hits?: { entity_id: string; names: string[]; score: number; datasets: string[] }[] }).hits ?? []).slice(
        0,
        5,
      );
      out.push({
        role: n.role,
        name: n.name,
        status: r.status,
        hits: hits.map((h) => ({ entity_id: h.entity_id, names: h.names.slice(0, 5), score: h.score, datasets: h.datasets })),
      });
    }
  } catch (err) {
    // No list to screen against (a production environment without imported lists) is not "no match".
    return { status: 'error', names: out, lists: [...lists].map(([name, version]) => ({ name, version })), error: (err as Error).message };
  }
  const worst = out.reduce<Screening['status']>(
    (w, n) => (RANK[n.status as keyof typeof RANK] > RANK[w] ? (n.status as Screening['status']) : w),
    'no_match',
  );
  return { status: worst, names: out, lists: [...lists].map(([name, version]) => ({ name, version })) };
}

/**
 * Job travel_rule.screen, after an incoming message is received: screens the originator's names and the
 * originating VASP's name against the lists, gives every originator and beneficiary address the full
 * wallet screening, and records the result on the message. The addresses' strictest action (the
 * environment's address_risk_actions) decides first: reject sends a high_risk rejection to the
 * originator; hold, a name hit, or a screening that could not run puts the message in review. Either
 * raises a travel_rule alert (the cases module's generic alerts: one alert_review case per message).
 */
export function screeningJobHandler(
  db: Db,
  sealer: () => Sealer,
  screeningIndex: () => ScreeningIndexCache,
  wallets: () => WalletIndexes,
): JobHandler {
  return async (job: JobRow) => {
    const p = job.payload as { account_id: string; environment: Environment; message_id: string };
    const ctx = systemContext(db, p.account_id, p.environment, `job:${QUEUES.travelRuleScreen}`);
    const row = await messageRows.get(db, ctx, p.message_id);
    if (!row || (row.status !== 'received' && row.status !== 'in_review')) return;
    const payload = openIvms(sealer(), row) as IdentityPayload;
    const names = await screenNames(ctx, sealer(), screeningIndex(), namesToScreen(payload));
    const actions = addressActions(await settingsRows.get(db, ctx));
    const addr = await screenMessageAddresses(ctx, sealer(), messageAddresses(payload, row.destination_address), actions, wallets());
    const screening: Screening = {
      ...names,
      addresses: addr.addresses,
      address_outcome: addr.outcome,
      screened_at: new Date().toISOString(),
    };
    await withTransaction(ctx, async (tx) => {
      const now = await messageRows.get(tx, ctx, row.id, true);
      if (!now || (now.status !== 'received' && now.status !== 'in_review')) return;
      await messageRows.setAside(tx, ctx, row.id, { screening });
      const nameHit = screening.status !== 'no_match';
      const action = addr.outcome.action;
      if (!nameHit && action === 'proceed') return;
      const addressWhy = describeOutcome(screening.addresses);
      let why: string;
      if (action === 'reject') {
        why = `wallet_screening_${addr.outcome.level ?? 'invalid'}`;
        await move(tx, ctx, now, 'reject', {
          by: 'system',
          note: `${why}: ${addressWhy}`,
          deliver: 'resolution',
          patch: {
            rejection: { code: 'high_risk', message: `wallet screening: ${addressWhy}`.slice(0, 1000), retryable: false, kind: 'rejected' },
          },
        });
      } else {
        why = nameHit ? `screening_${screening.status}` : `wallet_screening_${addr.outcome.level ?? 'invalid'}`;
        if (now.status === 'received') await move(tx, ctx, now, 'review', { by: 'system', note: why });
      }
      const hit = screening.names.find((n) => n.status !== 'no_match');
      const addressSevere = addr.outcome.level === 'severe' || addr.outcome.level === 'high';
      await raiseAlert(tx, ctx, {
        kind: 'travel_rule',
        severity: screening.status === 'match' || addressSevere ? 'high' : 'medium',
        subjectType: 'travel_rule_message',
        subjectId: now.id,
        subjectReference: now.reference,
        title:
          action !== 'proceed'
            ? `Incoming Travel Rule message ${action === 'reject' ? 'rejected' : 'held'}: ${addressWhy}`.slice(0, 300)
            : `Incoming Travel Rule message: ${hit!.role} ${screening.status.replace('_', ' ')}`,
        details: {
          reason: why,
          request_identifier: now.request_identifier,
          hits: screening.names.flatMap((n) => n.hits.map((h) => ({ role: n.role, entity_id: h.entity_id, score: h.score }))),
          addresses: screening.addresses
            .filter((a) => a.action !== 'proceed')
            .map((a) => ({ role: a.role, address: a.address, level: a.level, wallet_screening: a.wallet_screening, action: a.action })),
        },
        dedupeKey: `screening:${now.request_identifier}`,
      });
    });
  };
}
