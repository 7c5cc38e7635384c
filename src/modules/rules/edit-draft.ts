import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/transaction.js';
import type { Rule as EngineRule, RuleSet as EngineRuleSet, AggregateDecl } from '../../engines/rules/index.js';
import { ruleRows } from './repository.js';
import { compileOrThrow, effectiveDraft, principalOf, toDraft, toRule } from './rule-set.js';
import type { CreateRule, Rule, RuleDraft, UpdateDraft, UpdateRule } from './schemas.js';

const renameFor = (index: number) => (field: string) =>
  field.startsWith(`rules[${index}].`) ? field.slice(`rules[${index}].`.length) : field;

/** POST /v1/rules: adds a rule to the draft (the draft is created from the current version, or the starter library). */
export async function createRule({ ctx, input }: { ctx: RequestContext; input: CreateRule }): Promise<Rule> {
  return withTransaction(ctx, async (tx) => {
    await ruleRows.lockTenant(tx, ctx);
    const d = await effectiveDraft(tx, ctx, true);
    const author = principalOf(ctx);
    const rule: EngineRule = {
      id: newId('rule'),
      key: input.key,
      version: 1,
      name: input.name,
      description: input.description ?? '',
      expression: input.expression,
      score: input.score,
      severity: input.severity,
      ...(input.force_outcome ? { force_outcome: input.force_outcome } : {}),
      typologies: input.tags ?? [],
      status: input.status ?? 'draft',
      author,
    };
    const doc: EngineRuleSet = { ...d.document, rules: [...d.document.rules, rule] };
    compileOrThrow(doc, renameFor(doc.rules.length - 1));
    const saved = await ruleRows.saveDraft(tx, ctx, { base_version: d.base_version, document: doc, author });
    await emitAudit(tx, ctx, {
      action: 'rule.created',
      resourceType: 'rule',
      resourceId: rule.id,
      metadata: { key: rule.key, status: rule.status, expression: rule.expression, draft_revision: saved.revision },
    });
    return toRule(rule);
  });
}

/** PATCH /v1/rules/{id}: changes a rule in the draft; the published versions are untouched. */
export async function updateRule({ ctx, id, input }: { ctx: RequestContext; id: string; input: UpdateRule }): Promise<Rule> {
  return withTransaction(ctx, async (tx) => {
    await ruleRows.lockTenant(tx, ctx);
    const d = await effectiveDraft(tx, ctx, true);
    const i = d.document.rules.findIndex((r) => r.id === id);
    if (i < 0) throw notFound('rule', 'id');
    const before = d.document.rules[i]!;
    const author = principalOf(ctx);
    const after: EngineRule = { ...before, author };
    delete after.reviewed_by;
    if (input.key !== undefined) after.key = input.key;
    if (input.name !== undefined) after.name = input.name;
    if (input.description !== undefined) after.description = input.description;
    if (input.expression !== undefined) after.expression = input.expression;
    if (input.score !== undefined) after.score = input.score;
    if (input.severity !== undefined) after.severity = input.severity;
    if (input.tags !== undefined) after.typologies = input.tags;
    if (input.status !== undefined) after.status = input.status;
    if (input.force_outcome !== undefined) {
      if (input.force_outcome === null) delete after.force_outcome;
      else after.force_outcome = input.force_outcome;
    }
    const rules = [...d.document.rules];
    rules[i] = after;
    const doc: EngineRuleSet = { ...d.document, rules };
    compileOrThrow(doc, renameFor(i));
    const saved = await ruleRows.saveDraft(tx, ctx, { base_version: d.base_version, document: doc, author });
    const diff: Record<string, { before: unknown; after: unknown }> = {};
    for (const k of Object.keys(input) as (keyof UpdateRule)[]) {
      const b = toRule(before)[k];
      const a = toRule(after)[k];
      if (JSON.stringify(b) !== JSON.stringify(a)) diff[k] = { before: b, after: a };
    }
    await emitAudit(tx, ctx, {
      action: 'rule.updated',
      resourceType: 'rule',
      resourceId: id,
      diff,
      metadata: { key: after.key, draft_revision: saved.revision },
    });
    return toRule(after);
  });
}

/** PATCH /v1/rules/draft: thresholds, declared aggregates, change note. */
export async function updateDraft({ ctx, input }: { ctx: RequestContext; input: UpdateDraft }): Promise<RuleDraft> {
  return withTransaction(ctx, async (tx) => {
    await ruleRows.lockTenant(tx, ctx);
    const d = await effectiveDraft(tx, ctx, true);
    const doc: EngineRuleSet = {
      ...d.document,
      ...(input.thresholds ? { thresholds: input.thresholds } : {}),
      ...(input.aggregates ? { aggregates: input.aggregates as AggregateDecl[] } : {}),
      ...(input.change_note ? { change_note: input.change_note } : {}),
    };
    compileOrThrow(doc);
    const saved = await ruleRows.saveDraft(tx, ctx, { base_version: d.base_version, document: doc, author: principalOf(ctx) });
    await emitAudit(tx, ctx, {
      action: 'rule_set.draft_updated',
      resourceType: 'rule_set',
      resourceId: `draft`,
      diff: {
        ...(input.thresholds ? { thresholds: { before: d.document.thresholds, after: doc.thresholds } } : {}),
        ...(input.aggregates
          ? { aggregates: { before: d.document.aggregates.map((a) => a.key), after: doc.aggregates.map((a) => a.key) } }
          : {}),
      },
      metadata: { draft_revision: saved.revision, change_note: input.change_note ?? null },
    });
    return toDraft(saved);
  });
}
