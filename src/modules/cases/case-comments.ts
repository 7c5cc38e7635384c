import type { RequestContext } from '../../platform/context.js';
import { emitAudit } from '../../platform/audit.js';
import type { ErasureHook } from '../../platform/erasure.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { withTransaction } from '../../platform/transaction.js';
import type { CaseComment, CreateCaseComment } from './schemas.js';

interface CommentRow {
  id: string;
  case_id: string;
  author: string;
  body: string;
  created_at: Date;
}

function toComment(r: CommentRow): CaseComment {
  const at = r.author.indexOf(':');
  return {
    id: r.id,
    object: 'case_comment',
    case_id: r.case_id,
    author: { type: r.author.slice(0, at), id: r.author.slice(at + 1) },
    body: r.body,
    created_at: iso(r.created_at)!,
  };
}

/**
 * POST /v1/cases/{id}/comments: a note on an open or closed case (a closed case can still be annotated,
 * e.g. with a regulator's reference) by its author, with the audit row `case.commented` naming the
 * comment, not its text (the text may name the person; the audit log is hash-chained and never edited).
 */
export async function commentOnCase({
  ctx,
  id,
  input,
}: {
  ctx: RequestContext;
  id: string;
  input: CreateCaseComment;
}): Promise<CaseComment> {
  return withTransaction(ctx, async (tx) => {
    const [c] = await tx.query<{ id: string; state: string }>(
      'SELECT id, state FROM cases WHERE account_id = $1 AND environment = $2 AND id = $3 FOR SHARE',
      [ctx.accountId, ctx.environment, id],
    );
    if (!c) throw notFound('case', 'id');
    const body = input.body.trim();
    const commentId = newId('caseComment');
    const [row] = await tx.query<CommentRow>(
      `INSERT INTO case_comments (id, case_id, account_id, environment, author, body) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, case_id, author, body, created_at`,
      [commentId, id, ctx.accountId, ctx.environment, `${ctx.actor.type}:${ctx.actor.id}`, body],
    );
    await emitAudit(tx, ctx, {
      action: 'case.commented',
      resourceType: 'case',
      resourceId: id,
      metadata: { comment_id: commentId, length: body.length, case_state: c.state },
    });
    return toComment(row!);
  });
}

/** GET /v1/cases/{id}/comments: oldest first, paged by id. */
export async function listCaseComments(ctx: RequestContext, id: string, q: { limit?: number; cursor?: string }) {
  const [c] = await ctx.db.query<{ id: string }>('SELECT id FROM cases WHERE account_id = $1 AND environment = $2 AND id = $3', [
    ctx.accountId,
    ctx.environment,
    id,
  ]);
  if (!c) throw notFound('case', 'id');
  const page = await paginate<CommentRow & Record<string, unknown>>(ctx.db, ctx, {
    from: 'case_comments',
    where: ['case_id = $3'],
    params: [id],
    order: 'asc',
    limit: q.limit,
    cursor: q.cursor,
    name: `case_comments:${id}`,
  });
  return { data: page.data.map(toComment), next_cursor: page.next_cursor };
}

/**
 * Erasing a verification session (DELETE /v1/verifications/{id} or retention) deletes the comments of its
 * cases: free text that may name the person. The audit rows of `case.commented` keep only the comment ids.
 */
export const caseCommentErasure: ErasureHook = {
  name: 'case_comments',
  async erase(tx, { ctx, sessionId }) {
    const rows = await tx.query<{ n: number }>(
      `WITH d AS (DELETE FROM case_comments WHERE account_id = $1 AND environment = $2
                    AND case_id IN (SELECT id FROM cases WHERE account_id = $1 AND environment = $2 AND session_id = $3) RETURNING 1)
       SELECT count(*)::int AS n FROM d`,
      [ctx.accountId, ctx.environment, sessionId],
    );
    return rows[0]?.n ?? 0;
  },
};
