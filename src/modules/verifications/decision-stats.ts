import { Type, type Static } from '@sinclair/typebox';
import type { RequestContext } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import { sessions } from './repository.js';

/** The longest window one request may count: the query is bounded (one row per day and decision). */
export const MAX_STATS_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
/** The days a window may hold: from 1970 (nothing is older) to the last day whose next day still has a four-digit year. */
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9999-12-30';

export const DecisionStatsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({ format: 'date', description: `First UTC day (YYYY-MM-DD); default ${DEFAULT_DAYS - 1} days before to.` }),
    ),
    to: Type.Optional(Type.String({ format: 'date', description: 'Last UTC day, included (YYYY-MM-DD); default today.' })),
  },
  { additionalProperties: false },
);
export type DecisionStatsQuery = Static<typeof DecisionStatsQuery>;

const Counts = {
  approved: Type.Integer({ minimum: 0 }),
  declined: Type.Integer({ minimum: 0 }),
  referred: Type.Integer({ minimum: 0, description: 'Sent to review and not decided by a person yet.' }),
};
const Rate = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
  description: 'approved / (approved + declined); null when nothing was approved or declined.',
});

export const DecisionStats = Type.Object(
  {
    object: Type.Literal('decision_stats'),
    environment: Type.String(),
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    ...Counts,
    approval_rate: Rate,
    days: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), ...Counts, approval_rate: Rate }), {
      description: 'Every day of the window, oldest first (days without decisions count 0).',
    }),
  },
  { title: 'DecisionStats' },
);
export type DecisionStats = Static<typeof DecisionStats>;

const rate = (c: { approved: number; declined: number }) =>
  c.approved + c.declined ? Math.round((c.approved / (c.approved + c.declined)) * 10_000) / 10_000 : null;

/**
 * Sessions decided per UTC day in a window, by their current decision (a referred session a person
 * later approved counts as approved on the day the decision was recorded).
 */
export async function decisionStats({ ctx, query }: { ctx: RequestContext; query: DecisionStatsQuery }): Promise<DecisionStats> {
  const today = new Date().toISOString().slice(0, 10);
  const to = query.to ?? today;
  const toMs = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(toMs)) throw invalid('to', 'to is not a day (YYYY-MM-DD).');
  const outside = (day: string) => day < FIRST_DAY || day > LAST_DAY;
  if (outside(to)) throw invalid('to', `to must be a day from ${FIRST_DAY} to ${LAST_DAY}.`);
  // The default window starts 29 days before `to`, never before the first day.
  const from =
    query.from ?? new Date(Math.max(Date.parse(`${FIRST_DAY}T00:00:00Z`), toMs - (DEFAULT_DAYS - 1) * DAY_MS)).toISOString().slice(0, 10);
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  if (Number.isNaN(fromMs)) throw invalid('from', 'from is not a day (YYYY-MM-DD).');
  if (outside(from)) throw invalid('from', `from must be a day from ${FIRST_DAY} to ${LAST_DAY}.`);
  if (fromMs > toMs) throw invalid('from', 'from is after to.');
  const span = (toMs - fromMs) / DAY_MS + 1;
  if (span > MAX_STATS_DAYS) throw invalid('from', `At most ${MAX_STATS_DAYS} days per request.`);

  const rows = await sessions.decisionsPerDay(ctx.db, ctx, new Date(fromMs), new Date(toMs + DAY_MS));
  const days = Array.from({ length: span }, (_, i) => ({
    date: new Date(fromMs + i * DAY_MS).toISOString().slice(0, 10),
    approved: 0,
    declined: 0,
    referred: 0,
  }));
  const byDate = new Map(days.map((d) => [d.date, d]));
  for (const r of rows) {
    const d = byDate.get(r.day);
    if (d) d[r.decision] += r.n;
  }
  const total = { approved: 0, declined: 0, referred: 0 };
  for (const d of days) for (const k of ['approved', 'declined', 'referred'] as const) total[k] += d[k];
  return {
    object: 'decision_stats',
    environment: ctx.environment,
    from,
    to,
    ...total,
    approval_rate: rate(total),
    days: days.map((d) => ({ ...d, approval_rate: rate(d) })),
  };
}
