// The KYT benchmarks' shared set-up: the 20-rule set (11 starter typologies + 9 plain rules) and the seeded
// bench history (1,000 subjects, heavy subjects holding 10 %), so kyt-transactions and kyt-explain measure the
// same thing. Never imported by the service.
import type { TestApp, Tenant } from '../../test/helpers/test-app.js';

/** Deterministic pseudo-random sequence (no Math.random in measurements that are compared run to run). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** The 9 plain rules added to the starter typologies to make the bench's 20 active rules. */
export const PLAIN_RULES: readonly (readonly [string, string])[] = [
  ['amount_10k', 'tx.amount >= 10000.0'],
  ['amount_50k', 'tx.amount >= 50000.0'],
  ['night', 'tx.hour < 5 && tx.amount > 2000.0'],
  ['crypto', 'tx.type == "crypto" && tx.amount > 1000.0'],
  ['cash_out', 'tx.type == "cash_out" && tx.direction == "out"'],
  ['foreign', 'counterparty.bank_country != "" && counterparty.bank_country != "DE"'],
  ['weekend_big', 'tx.weekday == 0 && tx.amount > 5000.0'],
  ['new_subject', 'subject.relationship_days < 7 && tx.amount > 3000.0'],
  ['channel_atm', 'tx.channel == "atm" && tx.amount > 1000.0'],
];

/** A JSON API call as some principal; throws on a status ≥ 300. */
export type ApiCall = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => Promise<any>;

/**
 * Publishes a rule set: the starter drafts named in `starter` ('all' by default) active, the others disabled,
 * plus `extra` rules (PLAIN_RULES by default); the maker drafts, the checker publishes. Returns the active count.
 */
export async function publishRuleSet(
  maker: ApiCall,
  checker: ApiCall,
  o: { starter?: 'all' | readonly string[]; extra?: readonly (readonly [string, string])[]; note?: string } = {},
): Promise<number> {
  const starter = o.starter ?? 'all';
  const draft = await maker('GET', '/v1/rules/draft');
  for (const r of draft.rules as { id: string; key: string }[]) {
    const on = starter === 'all' || starter.includes(r.key);
    await maker('PATCH', `/v1/rules/${r.id}`, { status: on ? 'active' : 'disabled' });
  }
  for (const [key, expression] of o.extra ?? PLAIN_RULES)
    await maker('POST', '/v1/rules', { key, name: key, expression, score: 10, severity: 'medium', status: 'active' });
  const revision = (await maker('GET', '/v1/rules/draft')).revision;
  const v = await checker('POST', '/v1/rules/publish', { revision, change_note: o.note ?? 'benchmark' });
  return v.rules.filter((r: { status: string }) => r.status === 'active').length;
}

/** The bench's subject references: `cus_heavy`, `cus_heavy_1`… for heavy subjects. */
export const heavyName = (i: number): string => (i === 0 ? 'cus_heavy' : `cus_heavy_${i}`);

/**
 * `history` JSON lines over the 90 days before `now`, across `subjects` subjects; every 10th row belongs to
 * one of `heavyCount` heavy subjects (10 % of the history), 5,000 counterparties, 90 % German banks. Seeded.
 */
export function historyLines(history: number, o: { heavyCount?: number; subjects?: number; now?: number } = {}): string[] {
  const heavyCount = Math.max(1, o.heavyCount ?? 1);
  const subjects = o.subjects ?? 1000;
  const now = o.now ?? Date.now();
  const DAY = 86_400_000;
  const rnd = lcg(42);
  const lines: string[] = [];
  for (let i = 0; i < history; i++) {
    const heavy = i % 10 === 0;
    lines.push(
      JSON.stringify({
        reference: `hist_${i}`,
        occurred_at: new Date(now - 90 * DAY + Math.floor((i / history) * 89 * DAY)).toISOString(),
        amount: (10 + Math.floor(rnd() * 500000) / 100).toFixed(2),
        currency: 'EUR',
        direction: rnd() < 0.5 ? 'in' : 'out',
        type: rnd() < 0.1 ? 'cash' : 'transfer',
        subject: { reference: heavy ? heavyName((i / 10) % heavyCount) : `cus_${Math.floor(rnd() * subjects)}` },
        counterparty: { reference: `cp_${Math.floor(rnd() * 5000)}`, bank_country: rnd() < 0.9 ? 'DE' : 'FR' },
      }),
    );
  }
  return lines;
}

/** Imports history lines through POST /v1/transactions/imports, 20,000 a request. */
export async function importHistory(call: ApiCall, lines: readonly string[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 20_000)
    await call('POST', '/v1/transactions/imports', { format: 'jsonl', data: lines.slice(i, i + 20_000).join('\n') });
}

/** A tenant of an in-process test app as the benches use it: its sandbox key (maker) and a rules:publish key (checker). */
export async function testAppTenant(t: TestApp): Promise<{ tenant: Tenant; maker: ApiCall; checker: ApiCall }> {
  const tenant = await t.tenant();
  const as =
    (key: string): ApiCall =>
    async (method, url, body) => {
      const r = await t.call(method as 'GET', url, { key, body });
      if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body.slice(0, 300)}`);
      return r.json();
    };
  return { tenant, maker: as(tenant.sandboxKey), checker: as(await tenant.keyWith(['rules:publish'])) };
}
