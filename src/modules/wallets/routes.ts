import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import {
  ImportAttributionsBody,
  ImportTransfersBody,
  MonitorWalletBody,
  MonitorsQuery,
  PutPolicyBody,
  ScreenWalletBody,
  WalletImport,
  WalletMonitor,
  WalletPolicy,
  WalletScreening,
} from './schemas.js';
import { screenWalletVerb } from './screen-wallet.js';
import { existingMonitor, moveMonitor, registerMonitor } from './monitor.js';
import { importAttributions, importTransfers } from './imports.js';
import { getPolicy, putPolicy } from './policy.js';
import { WALLET_INDEXES } from './indexes.js';
import { READINESS } from '../../platform/readiness.js';
import { toMonitor, toScreening, walletMonitors, walletScreenings } from './repository.js';

/** Wallet screening and monitoring (docs/wallets.md). */
export const walletsModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const sealer = deps.sealer;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // Pre-warm in the background: the server listens at once and /readyz answers 503 (wallet_indexes:
  // warming) until the indexes are built; a request that comes first builds or waits on what it needs.
  // A snapshot switch is indexed in the background.
  let stopRefresh = () => {};
  let warming: Promise<unknown> = Promise.resolve();
  const abort = new AbortController();
  const cache = deps.resources.get(WALLET_INDEXES);
  const readiness = deps.config.wallets.prewarm ? deps.resources.get(READINESS).register('wallet_indexes') : null;
  app.addHook('onReady', async () => {
    if (readiness) {
      const t0 = Date.now();
      // A failed pre-warm does not hold readiness back: the first screening builds what is missing.
      warming = cache.prewarm(undefined, abort.signal).then(
        (warmed) => {
          readiness.ready();
          app.log.info({ ...warmed, ms: Date.now() - t0 }, 'wallet screening indexes pre-warmed');
        },
        (err: unknown) => {
          readiness.degraded();
          if (!abort.signal.aborted) app.log.warn({ err }, 'wallet screening pre-warm failed; the first screening builds the indexes');
        },
      );
    }
    stopRefresh = cache.startRefresh(deps.config.wallets.listRefreshMs, (err) => app.log.warn({ err }, 'wallet list index refresh failed'));
  });
  app.addHook('onClose', async () => {
    stopRefresh();
    abort.abort();
    await warming;
  });
  const tags = ['Wallets'];

  r.post(
    '/screen',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'screenWallet',
        summary: 'Screen a wallet address for sanctions and exposure categories (billed; an invalid address is a 400 naming the field)',
        body: ScreenWalletBody,
        response: { 200: WalletScreening, ...standardErrors },
      },
    },
    async (req) => screenWalletVerb(req.ctx, sealer, req.body, cache),
  );

  r.get(
    '/screenings/:id',
    {
      config: { scope: 'wallets:read' },
      schema: {
        tags,
        operationId: 'getWalletScreening',
        summary: 'Retrieve a wallet screening',
        params: IdParam,
        response: { 200: WalletScreening, ...standardErrors },
      },
    },
    async (req) => {
      const row = await walletScreenings.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('wallet screening', 'id');
      return toScreening(row);
    },
  );

  r.post(
    '/monitor',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'monitorWallet',
        summary:
          'Register a wallet of a subject for re-screening on list updates and new transfers (201; the same subject and address again returns the monitor with 200)',
        body: MonitorWalletBody,
        response: { 200: WalletMonitor, 201: WalletMonitor, ...standardErrors },
      },
    },
    async (req, reply) => {
      // The status is decided before the verb stores the idempotent response.
      reply.code((await existingMonitor(req.ctx, req.body)) ? 200 : 201);
      return registerMonitor(req.ctx, sealer, req.body, cache);
    },
  );

  r.get(
    '/monitors',
    {
      config: { scope: 'wallets:read' },
      schema: {
        tags,
        operationId: 'listWalletMonitors',
        summary: 'List wallet monitors, newest first',
        querystring: MonitorsQuery,
        response: { 200: Page(WalletMonitor), ...standardErrors },
      },
    },
    async (req) => {
      const page = await walletMonitors.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toMonitor), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/monitors/:id',
    {
      config: { scope: 'wallets:read' },
      schema: {
        tags,
        operationId: 'getWalletMonitor',
        summary: 'Retrieve a wallet monitor',
        params: IdParam,
        response: { 200: WalletMonitor, ...standardErrors },
      },
    },
    async (req) => {
      const row = await walletMonitors.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('wallet monitor', 'id');
      return toMonitor(row);
    },
  );

  for (const [move, summary] of [
    ['pause', 'Pause a wallet monitor (kept, not re-screened)'],
    ['resume', 'Resume a paused wallet monitor'],
  ] as const) {
    r.post(
      `/monitors/:id/${move}`,
      {
        config: { scope: 'wallets:write' },
        schema: {
          tags,
          operationId: `${move}WalletMonitor`,
          summary,
          params: IdParam,
          response: { 200: WalletMonitor, ...standardErrors },
        },
      },
      async (req) => moveMonitor(req.ctx, req.params.id, move),
    );
  }

  r.delete(
    '/monitors/:id',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'stopWalletMonitor',
        summary: 'Stop a wallet monitor (final; its screenings are kept)',
        params: IdParam,
        response: { 200: WalletMonitor, ...standardErrors },
      },
    },
    async (req) => moveMonitor(req.ctx, req.params.id, 'stop'),
  );

  r.post(
    '/attributions/imports',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'importWalletAttributions',
        summary: 'Import attribution entries (chain, address, category, entity, source) into an attribution list (additive)',
        body: ImportAttributionsBody,
        response: { 201: WalletImport, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return importAttributions(req.ctx, req.body, cache);
    },
  );

  r.post(
    '/transfers/imports',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'importWalletTransfers',
        summary: 'Import known transfers (chain, tx hash, from, to, amount) into the exposure graph (additive)',
        body: ImportTransfersBody,
        response: { 201: WalletImport, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return importTransfers(req.ctx, req.body, cache);
    },
  );

  r.get(
    '/policy',
    {
      config: { scope: 'wallets:read' },
      schema: {
        tags,
        operationId: 'getWalletPolicy',
        summary: 'Read the risk policy table (category × exposure × minimum share → level)',
        response: { 200: WalletPolicy, ...standardErrors },
      },
    },
    async (req) => getPolicy(req.ctx.db, req.ctx),
  );

  r.put(
    '/policy',
    {
      config: { scope: 'wallets:write' },
      schema: {
        tags,
        operationId: 'putWalletPolicy',
        summary: 'Replace the risk policy table (audited with the previous table)',
        body: PutPolicyBody,
        response: { 200: WalletPolicy, ...standardErrors },
      },
    },
    async (req) => putPolicy(req.ctx, req.body, cache.policies),
  );
};
