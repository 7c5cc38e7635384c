import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { sealAuditChain, verifyTenantAuditChain } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { Page, paginate } from '../../platform/pagination.js';
import { Timestamp, iso, standardErrors } from '../../platform/schemas.js';

const AuditEvent = Type.Object({
  id: Type.String(),
  object: Type.Literal('audit_event'),
  sequence: Type.Integer({ description: 'Position in the hash chain; strictly increasing.' }),
  actor: Type.Object({ type: Type.String(), id: Type.String() }),
  action: Type.String(),
  resource: Type.Object({ type: Type.String(), id: Type.String() }),
  request_id: Type.Union([Type.String(), Type.Null()]),
  diff: Type.Union([Type.Record(Type.String(), Type.Object({ before: Type.Unknown(), after: Type.Unknown() })), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  created_at: Timestamp,
  hash: Type.String({ description: 'SHA-256 chain hash; see docs/security.md.' }),
  prev_hash: Type.String(),
});

const Query = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  actor_id: Type.Optional(Type.String({ maxLength: 64 })),
  action: Type.Optional(Type.String({ maxLength: 100 })),
  resource_type: Type.Optional(Type.String({ maxLength: 64 })),
  resource_id: Type.Optional(Type.String({ maxLength: 64 })),
  created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Only events at or after this time.' })),
  created_lt: Type.Optional(Type.String({ format: 'date-time', description: 'Only events before this time.' })),
  after_sequence: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume a stream after this sequence.' })),
});

const ChainVerification = Type.Object(
  {
    object: Type.Literal('audit_chain_verification'),
    ok: Type.Boolean({ description: 'Every sealed row of your account and environment holds, and so do its links to its neighbours.' }),
    checked: Type.Integer({ description: 'Your sealed rows verified.' }),
    unsealed: Type.Integer({ description: 'Your rows written but not yet sealed into the chain (sealed within seconds).' }),
    first_bad_sequence: Type.Union([Type.Integer(), Type.Null()], { description: 'The first chain position that does not hold.' }),
    problem: Type.Union([Type.String(), Type.Null()], { description: 'What does not hold there, in words.' }),
    head_sequence: Type.Integer({ description: "The chain's last sealed position when the check began (every tenant's rows count)." }),
    verified_at: Timestamp,
  },
  {
    title: 'AuditChainVerification',
    description:
      "Your rows' hashes and row MACs recomputed with the service's key, and each row's links to the rows before and after it. A deletion far from your rows, or rows cut from the chain's end, are found by the operator's whole-chain check (verity audit verify with a checkpoint).",
  },
);

interface Row {
  id: string;
  chain_seq: number;
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  diff: Record<string, { before: unknown; after: unknown }> | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  hash: string;
  prev_hash: string;
}

/**
 * The audit log as a stream: oldest first by chain sequence. Sequences are assigned when rows are
 * sealed into the hash chain, in order, so a client following next_cursor (or resuming with
 * after_sequence) sees every event exactly once even while new ones are written.
 */
export const auditEventsModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/verification',
    {
      config: { scope: 'audit:read' },
      schema: {
        tags: ['Audit'],
        operationId: 'verifyAuditChain',
        summary: "Verify the hash chain over the caller's audit events",
        response: { 200: ChainVerification, ...standardErrors },
      },
    },
    async (req) => {
      await sealAuditChain(req.ctx.db);
      const v = await verifyTenantAuditChain(req.ctx.db, req.ctx.accountId, req.ctx.environment);
      return {
        object: 'audit_chain_verification' as const,
        ok: v.ok,
        checked: v.checked,
        unsealed: v.unsealed,
        first_bad_sequence: v.firstBadSeq,
        problem: v.problem,
        head_sequence: v.headSeq,
        verified_at: new Date().toISOString(),
      };
    },
  );
  r.get(
    '',
    {
      config: { scope: 'audit:read' },
      schema: {
        tags: ['Audit'],
        operationId: 'listAuditEvents',
        summary: 'Stream audit log events',
        querystring: Query,
        response: { 200: Page(AuditEvent), ...standardErrors },
      },
    },
    async (req) => {
      const q = req.query;
      if (q.created_gte && q.created_lt && Date.parse(q.created_gte) >= Date.parse(q.created_lt))
        throw invalid('created_lt', 'created_lt must be after created_gte.');
      await sealAuditChain(req.ctx.db);
      const where = ['chain_seq IS NOT NULL'];
      const params: unknown[] = [];
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where.push(sql.replace('?', `$${params.length + 2}`));
      };
      if (q.actor_id) add('actor_id = ?', q.actor_id);
      if (q.action) add('action = ?', q.action);
      if (q.resource_type) add('resource_type = ?', q.resource_type);
      if (q.resource_id) add('resource_id = ?', q.resource_id);
      if (q.created_gte) add('created_at >= ?::timestamptz', q.created_gte);
      if (q.created_lt) add('created_at < ?::timestamptz', q.created_lt);
      if (q.after_sequence !== undefined) add('chain_seq > ?', q.after_sequence);
      const page = await paginate<Row & Record<string, unknown>>(req.ctx.db, req.ctx, {
        from: 'audit_events',
        where,
        params,
        key: 'chain_seq',
        order: 'asc',
        limit: q.limit,
        cursor: q.cursor,
        name: 'audit',
      });
      return {
        data: page.data.map((a) => ({
          id: a.id,
          object: 'audit_event' as const,
          sequence: Number(a.chain_seq),
          actor: { type: a.actor_type, id: a.actor_id },
          action: a.action,
          resource: { type: a.resource_type, id: a.resource_id },
          request_id: a.request_id,
          diff: a.diff,
          metadata: a.metadata,
          created_at: iso(a.created_at)!,
          hash: a.hash,
          prev_hash: a.prev_hash,
        })),
        next_cursor: page.next_cursor,
      };
    },
  );
};
