import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { notFound } from '../../platform/errors.js';
import { Page } from '../../platform/pagination.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import { SCREENING_INDEX } from '../checks/index.js';
import { WALLET_INDEXES } from '../wallets/index.js';
import { createCounterparty, updateCounterparty } from './counterparties.js';
import { createMessage } from './create-message.js';
import { actOnMessage, type ActionInput } from './message-actions.js';
import { OPERATION_DOCS } from './operation-docs.js';
import { counterpartyRows, messageRows, settingsRows, toCounterparty, toMessage } from './repository.js';
import {
  AcceptBody,
  CancelBody,
  ConfirmBody,
  CounterpartiesQuery,
  Counterparty,
  CreateCounterparty,
  CreateMessage,
  MessagesQuery,
  NoteBody,
  RejectBody,
  RepairBody,
  SendBody,
  Settings,
  TravelRuleMessage,
  UpdateCounterparty,
  UpdateSettings,
} from './schemas.js';
import { toSettings, updateSettings } from './environment-settings.js';

const ACTION_ROUTES: { path: string; action: ActionInput['action']; operationId: string; summary: string; body: TSchema }[] = [
  {
    path: 'send',
    action: 'send',
    operationId: 'sendTravelRuleMessage',
    summary: 'Send a draft, or resend a repaired message',
    body: SendBody,
  },
  {
    path: 'review',
    action: 'review',
    operationId: 'reviewTravelRuleMessage',
    summary: 'Take a received message into review',
    body: NoteBody,
  },
  {
    path: 'accept',
    action: 'accept',
    operationId: 'acceptTravelRuleMessage',
    summary: 'Accept a received message with the beneficiary data and deposit address',
    body: AcceptBody,
  },
  {
    path: 'reject',
    action: 'reject',
    operationId: 'rejectTravelRuleMessage',
    summary: 'Reject a received message with a code and a retry hint',
    body: RejectBody,
  },
  {
    path: 'request-repair',
    action: 'request_repair',
    operationId: 'requestTravelRuleMessageRepair',
    summary: 'Ask the originator VASP to repair a received message',
    body: RepairBody,
  },
  {
    path: 'confirm',
    action: 'confirm',
    operationId: 'confirmTravelRuleMessage',
    summary: 'Confirm an accepted transfer with its transaction hash',
    body: ConfirmBody,
  },
  { path: 'cancel', action: 'cancel', operationId: 'cancelTravelRuleMessage', summary: 'Cancel the transfer', body: CancelBody },
];

/** Travel Rule messages between VASPs (one resource with a lifecycle), the counterparty directory and the TRP receiver's settings. */
export const travelRuleModule: FastifyPluginAsync<ModuleOptions> = async (app, opts) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Travel Rule'];
  const { sealer, config } = opts.deps;
  const production = { requireHttps: config.webhooks.requireHttps, allowPrivateNetworks: config.webhooks.allowPrivateNetworks };
  const deps = { sealer, production, wallets: () => opts.deps.resources.get(WALLET_INDEXES) };
  const cpDeps = () => ({ ...deps, cache: opts.deps.resources.get(SCREENING_INDEX) });

  r.post(
    '/messages',
    {
      config: { scope: 'travel_rule:write' },
      schema: {
        tags,
        operationId: 'createTravelRuleMessage',
        summary: 'Send or record originator and beneficiary data for a transfer',
        description: OPERATION_DOCS.createTravelRuleMessage,
        body: CreateMessage,
        response: { 201: TravelRuleMessage, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createMessage({ ctx: req.ctx, deps, input: req.body });
    },
  );

  r.get(
    '/messages',
    {
      config: { scope: 'travel_rule:read' },
      schema: {
        tags,
        operationId: 'listTravelRuleMessages',
        summary: 'List Travel Rule messages',
        description: OPERATION_DOCS.listTravelRuleMessages,
        querystring: MessagesQuery,
        response: { 200: Page(TravelRuleMessage), ...standardErrors },
      },
    },
    async (req) => {
      const page = await messageRows.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map((m) => toMessage(m, sealer)), next_cursor: page.next_cursor };
    },
  );

  r.get(
    '/messages/:id',
    {
      config: { scope: 'travel_rule:read' },
      schema: {
        tags,
        operationId: 'getTravelRuleMessage',
        summary: 'Retrieve a Travel Rule message with its state trail',
        params: IdParam,
        response: { 200: TravelRuleMessage, ...standardErrors },
      },
    },
    async (req) => {
      const row = await messageRows.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('travel_rule_message', 'id');
      return toMessage(row, sealer, await messageRows.transitionsOf(req.ctx.db, req.ctx, row.id));
    },
  );

  for (const a of ACTION_ROUTES) {
    r.post<{ Params: { id: string }; Body: ActionInput['body'] }>(
      `/messages/:id/${a.path}`,
      {
        config: { scope: 'travel_rule:write' },
        schema: {
          tags,
          operationId: a.operationId,
          summary: a.summary,
          description: OPERATION_DOCS.actions,
          params: IdParam,
          body: a.body,
          response: { 200: TravelRuleMessage, ...standardErrors },
        },
      },
      async (req) =>
        actOnMessage({ ctx: req.ctx, deps, id: req.params.id, input: { action: a.action, body: req.body ?? {} } as ActionInput }),
    );
  }

  r.get(
    '/counterparties',
    {
      config: { scope: 'travel_rule:read' },
      schema: {
        tags,
        operationId: 'listTravelRuleCounterparties',
        summary: 'Look up a counterparty VASP and its supported protocols',
        description: OPERATION_DOCS.listCounterparties,
        querystring: CounterpartiesQuery,
        response: { 200: Page(Counterparty), ...standardErrors },
      },
    },
    async (req) => {
      const page = await counterpartyRows.page(req.ctx.db, req.ctx, req.query);
      return { data: page.data.map(toCounterparty), next_cursor: page.next_cursor };
    },
  );

  r.post(
    '/counterparties',
    {
      config: { scope: 'travel_rule:write' },
      schema: {
        tags,
        operationId: 'createTravelRuleCounterparty',
        summary: 'Add a counterparty VASP to the directory',
        body: CreateCounterparty,
        response: { 201: Counterparty, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createCounterparty({ ctx: req.ctx, deps: cpDeps(), input: req.body });
    },
  );

  r.get(
    '/counterparties/:id',
    {
      config: { scope: 'travel_rule:read' },
      schema: {
        tags,
        operationId: 'getTravelRuleCounterparty',
        summary: 'Retrieve a counterparty VASP',
        params: IdParam,
        response: { 200: Counterparty, ...standardErrors },
      },
    },
    async (req) => {
      const row = await counterpartyRows.get(req.ctx.db, req.ctx, req.params.id);
      if (!row) throw notFound('counterparty', 'id');
      return toCounterparty(row);
    },
  );

  r.patch(
    '/counterparties/:id',
    {
      config: { scope: 'travel_rule:write' },
      schema: {
        tags,
        operationId: 'updateTravelRuleCounterparty',
        summary: 'Update a counterparty VASP (a new legal name is screened again)',
        params: IdParam,
        body: UpdateCounterparty,
        response: { 200: Counterparty, ...standardErrors },
      },
    },
    async (req) => updateCounterparty({ ctx: req.ctx, deps: cpDeps(), id: req.params.id, input: req.body }),
  );

  r.get(
    '/settings',
    {
      config: { scope: 'travel_rule:read' },
      schema: {
        tags,
        operationId: 'getTravelRuleSettings',
        summary: 'The TRP receiver of this environment',
        response: { 200: Settings, ...standardErrors },
      },
    },
    async (req) => toSettings(await settingsRows.get(req.ctx.db, req.ctx), sealer, config.publicBaseUrl),
  );

  r.patch(
    '/settings',
    {
      config: { scope: 'travel_rule:write' },
      schema: {
        tags,
        operationId: 'updateTravelRuleSettings',
        summary: 'Enable or disable the TRP receiver of this environment',
        description: OPERATION_DOCS.updateTravelRuleSettings,
        body: UpdateSettings,
        response: { 200: Settings, ...standardErrors },
      },
    },
    async (req) => updateSettings({ ctx: req.ctx, sealer, publicBaseUrl: config.publicBaseUrl, input: req.body }),
  );
};
