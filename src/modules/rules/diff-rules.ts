import type { RequestContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import type { RuleSet as EngineRuleSet } from '../../engines/rules/index.js';
import { ruleRows } from './repository.js';
import { effectiveDraft, toRule } from './rule-set.js';
import type { RuleDiff } from './schemas.js';

type Change = Record<string, { before: unknown; after: unknown }>;

function changes(a: Record<string, unknown>, b: Record<string, unknown>, skip: string[] = []): Change {
  const out: Change = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (skip.includes(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = { before: a[k] ?? null, after: b[k] ?? null };
  }
  return out;
}

/** What changed between two rule set documents: thresholds, rules by stable id (field by field), aggregates by key. */
export function diffDocuments(from: EngineRuleSet | null, to: EngineRuleSet, fromVersion: number, toVersion: number | 'draft'): RuleDiff {
  const a = new Map((from?.rules ?? []).map((r) => [r.id, r]));
  const b = new Map(to.rules.map((r) => [r.id, r]));
  const t = from ? changes(from.thresholds as unknown as Record<string, unknown>, to.thresholds as unknown as Record<string, unknown>) : {};
  const aggA = new Map((from?.aggregates ?? []).map((x) => [x.key, JSON.stringify(x)]));
  const aggB = new Map(to.aggregates.map((x) => [x.key, JSON.stringify(x)]));
  return {
    object: 'rule_set_diff',
    from: fromVersion,
    to: toVersion,
    thresholds: Object.keys(t).length ? t : null,
    rules: {
      added: [...b.values()].filter((r) => !a.has(r.id)).map((r) => ({ id: r.id, key: r.key })),
      removed: [...a.values()].filter((r) => !b.has(r.id)).map((r) => ({ id: r.id, key: r.key })),
      changed: [...b.values()]
        .filter((r) => a.has(r.id))
        .map((r) => ({ id: r.id, key: r.key, fields: changes(toRule(a.get(r.id)!), toRule(r), ['version', 'author', 'reviewer']) }))
        .filter((c) => Object.keys(c.fields).length > 0),
    },
    aggregates: {
      added: [...aggB.keys()].filter((k) => !aggA.has(k)),
      removed: [...aggA.keys()].filter((k) => !aggB.has(k)),
      changed: [...aggB.keys()].filter((k) => aggA.has(k) && aggA.get(k) !== aggB.get(k)),
    },
  };
}

/** GET /v1/rules/diff?from=&to=: between two published versions, or a version and the draft. */
export async function diffRules({ ctx, from, to }: { ctx: RequestContext; from: number; to?: number | 'draft' }): Promise<RuleDiff> {
  const a = await ruleRows.version(ctx.db, ctx, from);
  if (!a) throw notFound('rule set version', 'from');
  let target = to;
  if (target === undefined) target = (await ruleRows.currentVersion(ctx.db, ctx)) ?? from;
  if (target === 'draft') return diffDocuments(a.document, (await effectiveDraft(ctx.db, ctx)).document, from, 'draft');
  const b = await ruleRows.version(ctx.db, ctx, target);
  if (!b) throw notFound('rule set version', 'to');
  return diffDocuments(a.document, b.document, from, target);
}
