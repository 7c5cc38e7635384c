import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../platform/app-types.js';
import { PLATFORM_EVENTS, type EventDeclaration } from '../platform/event-catalog.js';
import { listsModule } from './lists/index.js';
import { captureModule, hostedPageModule } from './capture/index.js';
import { webhookDeliveriesModule, webhooksModule } from './webhooks/index.js';
import { eventsModule } from './events/index.js';
import { auditEventsModule } from './audit-events/index.js';
import { usageModule } from './usage/index.js';
import { apiKeysModule } from './api-keys/index.js';
import { CHECK_EVENTS, CHECK_ROUTES } from './checks/index.js';
import { MONITORING_EVENTS, monitoringAlertCaseSubject, monitoringModule } from './monitoring/index.js';
import { journeysModule } from './journeys/index.js';
import {
  sandboxModule,
  VERIFICATION_EVENTS,
  verificationsModule,
  verificationEvidenceModule,
  verificationImportsModule,
  sessionCaseSubject,
} from './verifications/index.js';
import { CASE_EVENTS, casesModule, registerCaseSubjectSources, type CaseSubjectSource } from './cases/index.js';
import { respondPageModule, TRAVEL_RULE_EVENTS, travelRuleModule, trpInboundModule } from './travel-rule/index.js';
import { WALLET_EVENTS, walletsModule } from './wallets/index.js';
import { RULE_EVENTS, rulesModule } from './rules/index.js';
import { rulesBacktestModule, TRANSACTION_EVENTS, transactionsModule } from './transactions/index.js';
import { BUSINESS_EVENTS, businessesModule } from './businesses/index.js';

/** Every resource family is one encapsulated plugin with its prefix; adding a pillar is one line here. */
export const modules: { prefix: string; plugin: FastifyPluginAsync<ModuleOptions> }[] = [
  // Outside the API: the subject's capture API (session token, not API keys) and the hosted page (its own path).
  { prefix: '/capture/v1', plugin: captureModule },
  { prefix: '', plugin: hostedPageModule },
  { prefix: '/v1/lists', plugin: listsModule },
  { prefix: '/v1/webhooks', plugin: webhooksModule },
  { prefix: '/v1/webhook-deliveries', plugin: webhookDeliveriesModule },
  { prefix: '/v1/events', plugin: eventsModule },
  { prefix: '/v1/audit-events', plugin: auditEventsModule },
  { prefix: '/v1/usage', plugin: usageModule },
  { prefix: '/v1/api-keys', plugin: apiKeysModule },
  // The check family: GET /v1/checks/{id} and each check type's standalone endpoint (checks/registry.ts).
  ...CHECK_ROUTES,
  { prefix: '/v1/monitoring', plugin: monitoringModule },
  { prefix: '/v1/journeys', plugin: journeysModule },
  { prefix: '/v1/verifications', plugin: verificationsModule },
  { prefix: '/v1/verifications', plugin: verificationEvidenceModule },
  { prefix: '/v1/verifications', plugin: verificationImportsModule },
  { prefix: '/v1/sandbox', plugin: sandboxModule },
  { prefix: '/v1/cases', plugin: casesModule },
  { prefix: '/v1/travel-rule', plugin: travelRuleModule },
  // The TRP receiver (peers hold no API key): off unless an environment enables it.
  { prefix: '', plugin: trpInboundModule },
  { prefix: '', plugin: respondPageModule },
  { prefix: '/v1/wallets', plugin: walletsModule },
  { prefix: '/v1/rules', plugin: rulesModule },
  { prefix: '/v1/rules', plugin: rulesBacktestModule },
  { prefix: '/v1/transactions', plugin: transactionsModule },
  { prefix: '/v1/businesses', plugin: businessesModule },
];

/**
 * Every event type the service emits, in one explicit list: each module declares its events
 * (`events.ts`, exported by its face) and adds them here. The entry points register the list
 * (`registerEvents(EVENTS)`: buildApp, the worker, the CLI); the OpenAPI `webhooks` section follows its order.
 */
export const EVENTS: readonly EventDeclaration[] = [
  ...PLATFORM_EVENTS,
  ...CHECK_EVENTS,
  ...CASE_EVENTS,
  ...VERIFICATION_EVENTS,
  ...MONITORING_EVENTS,
  ...TRAVEL_RULE_EVENTS,
  ...WALLET_EVENTS,
  ...RULE_EVENTS,
  ...TRANSACTION_EVENTS,
  ...BUSINESS_EVENTS,
];

/**
 * What cases point at in other modules (a session, a monitoring alert), each implemented by its owner:
 * the entry points register the list beside the events (`registerCaseSubjectSources`).
 */
export const CASE_SUBJECT_SOURCES: readonly CaseSubjectSource[] = [sessionCaseSubject, monitoringAlertCaseSubject];
export { registerCaseSubjectSources };
