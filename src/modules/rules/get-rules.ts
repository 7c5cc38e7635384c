import type { RequestContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { ruleRows } from './repository.js';
import { effectiveDraft, toDraft, toRuleSet } from './rule-set.js';
import type { RuleDraft, RuleSet } from './schemas.js';

/** GET /v1/rules: the current published rule set (or ?version=), every version with its authors, and the draft's summary. */
export async function getRules({ ctx, version }: { ctx: RequestContext; version?: number }): Promise<RuleSet> {
  const db = ctx.db;
  const [current, versions, draft] = await Promise.all([ruleRows.current(db, ctx), ruleRows.versions(db, ctx), ruleRows.draft(db, ctx)]);
  let shown = current;
  if (version !== undefined && version !== current?.version) {
    shown = await ruleRows.version(db, ctx, version);
    if (!shown) throw notFound('rule set version', 'version');
  }
  return toRuleSet(shown, current?.version ?? null, versions, draft);
}

/** GET /v1/rules/draft: the draft's full content (the starter library, revision 0, before anyone edited). */
export async function getDraft({ ctx }: { ctx: RequestContext }): Promise<RuleDraft> {
  return toDraft(await effectiveDraft(ctx.db, ctx));
}
