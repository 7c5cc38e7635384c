/**
 * Every job queue, named once. Producers (enqueueJob), handlers (src/jobs/index.ts and the modules'
 * handler maps) and the recurring schedule refer to these constants, never to string literals, and a
 * test checks that every declared queue has exactly one handler.
 */
export const QUEUES = {
  auditSeal: 'audit.seal',
  idempotencyPurge: 'idempotency.purge',
  jobsPurge: 'jobs.purge',
  dbAnalyze: 'db.analyze',
  contactPurge: 'contact.purge',
  listsSync: 'lists.sync',
  rescreen: 'screening.rescreen',
  verificationPipeline: 'verifications.pipeline',
  verificationEnrol: 'verifications.enrol',
  verificationExpire: 'verifications.expire',
  verificationRetention: 'verifications.retention',
  sandboxRun: 'verifications.sandbox_run',
  travelRuleDeliver: 'travel_rule.deliver',
  travelRuleScreen: 'travel_rule.screen',
  walletsRescreen: 'wallets.rescreen',
  walletsChainData: 'wallets.chain_data',
  rulesBacktest: 'rules.backtest',
  transactionsIndexes: 'transactions.derived_indexes',
  businessesRescreen: 'businesses.rescreen',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
