import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { standardErrors } from '../../platform/schemas.js';
import { CreateListEntry, EntryParams, ListEntriesQuery, ListEntry, ListParam } from './schemas.js';
import { listEntries, toListEntry } from './repository.js';
import { addListEntry } from './add-entry.js';
import { deleteListEntry } from './delete-entry.js';

export const listsModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const sealer = deps.sealer;
  // Entries written before values were sealed are sealed once the server is up, in the background.
  app.addHook('onReady', async () => {
    void (async () => {
      let total = 0;
      for (let n = await listEntries.sealLegacyBatch(deps.db, sealer); n > 0; n = await listEntries.sealLegacyBatch(deps.db, sealer))
        total += n;
      if (total) app.log.info({ sealed: total }, 'list entry values sealed');
    })().catch((err: unknown) => app.log.warn({ err }, 'sealing list entry values failed; retried at the next start'));
  });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Lists'];

  r.post(
    '/:list/entries',
    {
      config: { scope: 'lists:write', idempotency: 'in-transaction' },
      schema: {
        tags,
        operationId: 'createListEntry',
        summary: 'Add an entry to a blocklist or allowlist with a reason',
        params: ListParam,
        body: CreateListEntry,
        response: { 201: ListEntry, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return addListEntry({ ctx: req.ctx, sealer, list: req.params.list, input: req.body });
    },
  );

  r.get(
    '/:list/entries',
    {
      config: { scope: 'lists:read' },
      schema: {
        tags,
        operationId: 'listListEntries',
        summary: 'List the entries of a blocklist or allowlist',
        params: ListParam,
        querystring: ListEntriesQuery,
        response: { 200: Page(ListEntry), ...standardErrors },
      },
    },
    async (req) => {
      const page = await listEntries.page(req.ctx.db, req.ctx, req.params.list, req.query);
      return { data: page.data.map((row) => toListEntry(row, sealer)), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/:list/entries/:id',
    {
      config: { scope: 'lists:read' },
      schema: {
        tags,
        operationId: 'getListEntry',
        summary: 'Retrieve a list entry',
        params: EntryParams,
        response: { 200: ListEntry, ...standardErrors },
      },
    },
    async (req) => {
      const row = await listEntries.get(req.ctx.db, req.ctx, req.params.list, req.params.id);
      if (!row) throw notFound('list entry', 'id');
      return toListEntry(row, sealer);
    },
  );

  r.delete(
    '/:list/entries/:id',
    {
      config: { scope: 'lists:write' },
      schema: {
        tags,
        operationId: 'deleteListEntry',
        summary: 'Remove a list entry (it stops applying; the audit trail keeps it)',
        params: EntryParams,
        response: { 200: ListEntry, ...standardErrors },
      },
    },
    async (req) => deleteListEntry({ ctx: req.ctx, sealer, list: req.params.list, id: req.params.id }),
  );
};
