import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import { AppError, conflict } from '../../platform/errors.js';
import { mayPublish } from '../../platform/scopes.js';
import { enqueueEvent } from '../../platform/outbox.js';
import { enqueueJob } from '../../platform/jobs.js';
import { QUEUES } from '../../platform/queues.js';
import { withTransaction } from '../../platform/transaction.js';
import type { Rule as EngineRule, RuleSet as EngineRuleSet } from '../../engines/rules/index.js';
import { ruleRows } from './repository.js';
import { compileOrThrow, principalOf, toRuleSet } from './rule-set.js';
import { diffDocuments } from './diff-rules.js';
import type { PublishRules, RuleSet } from './schemas.js';

const same = (a: EngineRule, b: EngineRule) => {
  const strip = ({ version: _v, author: _a, reviewed_by: _r, ...rest }: EngineRule) => JSON.stringify(rest);
  return strip(a) === strip(b);
};

/**
 * POST /v1/rules/publish: the draft becomes version n+1 (immutable). Maker-checker: the publisher must
 * not be one of the draft's authors (409, field author). 409 (field revision) when the draft changed
 * after the revision the publisher reviewed or a newer version was published. Changed rules get their
 * version increased and the publisher as reviewer. Audit rule_set.published; event ruleset.published.
 */
export async function publishRules({ ctx, input }: { ctx: RequestContext; input: PublishRules }): Promise<RuleSet> {
  if (!mayPublish(ctx, 'rules:publish'))
    throw new AppError(
      'insufficient_scope',
      "This operator's role may draft rules but not publish them (rules:publish: the approver role).",
    );
  return withTransaction(ctx, async (tx) => {
    await ruleRows.lockTenant(tx, ctx);
    const draft = await ruleRows.draft(tx, ctx, true);
    if (!draft) throw conflict('There is no draft to publish: change a rule (POST or PATCH /v1/rules) first.', 'revision');
    if (draft.revision !== input.revision)
      throw conflict(
        `The draft is at revision ${draft.revision}, not ${input.revision}: it changed since; review it again (GET /v1/rules/draft).`,
        'revision',
      );
    const current = await ruleRows.current(tx, ctx);
    const currentVersion = current?.version ?? 0;
    if (draft.base_version !== currentVersion)
      throw conflict(`The draft starts from version ${draft.base_version} but version ${currentVersion} was published since.`, 'revision');
    const publisher = principalOf(ctx);
    if (draft.authors.includes(publisher))
      throw conflict('Maker-checker: a draft is published by a principal who did not edit it; use another API key or user.', 'author');

    const base = new Map((current?.document.rules ?? []).map((r) => [r.id, r]));
    const version = currentVersion + 1;
    const rules = draft.document.rules.map((r): EngineRule => {
      const prior = base.get(r.id);
      if (prior && same(prior, r)) return prior;
      return { ...r, version: prior ? prior.version + 1 : 1, reviewed_by: publisher };
    });
    const changeNote = input.change_note ?? draft.document.change_note ?? null;
    const doc: EngineRuleSet = { ...draft.document, version, rules, ...(changeNote ? { change_note: changeNote } : {}) };
    compileOrThrow(doc);
    const row = await ruleRows.insertVersion(tx, ctx, {
      version,
      document: doc,
      change_note: changeNote,
      authors: draft.authors,
      published_by: publisher,
    });
    await ruleRows.deleteDraft(tx, ctx);
    const diff = diffDocuments(current?.document ?? null, doc, currentVersion, version);
    await emitAudit(tx, ctx, {
      action: 'rule_set.published',
      resourceType: 'rule_set',
      resourceId: `v${version}`,
      metadata: { version, authors: draft.authors, change_note: changeNote, draft_revision: draft.revision, rules: diff.rules },
    });
    await enqueueEvent(tx, ctx, {
      type: 'ruleset.published',
      resourceType: 'rule_set',
      resourceId: `v${version}`,
      data: {
        version,
        published_by: publisher,
        authors: draft.authors,
        change_note: changeNote,
        active_rules: rules.filter((r) => r.status === 'active').map((r) => r.key),
        test_rules: rules.filter((r) => r.status === 'test').map((r) => r.key),
        changes: diff.rules,
      },
    });
    // The transactions module derives its history indexes from the published aggregates (after commit, in a job).
    await enqueueJob(tx, QUEUES.transactionsIndexes, {}, { dedupeKey: QUEUES.transactionsIndexes, maxAttempts: 3 });
    return toRuleSet(row, version, await ruleRows.versions(tx, ctx), null);
  });
}
