// The public face of src/modules/travel-rule: other modules and the worker import only what is exported here.
import type { Db } from '../../platform/db.js';
import type { Sealer } from '../../platform/crypto.js';
import type { JobHandler } from '../../platform/jobs.js';
import type { UrlPolicy } from '../../platform/net-guard.js';
import { QUEUES } from '../../platform/queues.js';
import type { TrpClient } from '../../providers/travel-rule/index.js';
import type { MessagingProvider } from '../../providers/messaging/index.js';
import type { ScreeningIndexCache } from '../checks/index.js';
import type { WalletIndexes } from '../wallets/index.js';
import { deliveryJobHandler } from './deliver.js';
import { screeningJobHandler } from './screen-message.js';

export { travelRuleModule } from './routes.js';
export { trpInboundModule } from './trp-inbound.js';
export { respondPageModule } from './respond-page.js';
export { importCounterparties } from './counterparties.js';
export { runTravelRuleCommand, TRAVEL_RULE_USAGE } from './cli.js';

export interface TravelRuleJobDeps {
  publicBaseUrl: () => string;
  production: () => UrlPolicy;
  client?: TrpClient;
  /** The SMTP provider of the email fallback (null: not configured). */
  email?: () => MessagingProvider | null;
  /** The process's screening index (resources.get(SCREENING_INDEX)), asked for when a message is screened. */
  screening: () => ScreeningIndexCache;
  /** The process's wallet indexes (resources.get(WALLET_INDEXES)), asked for when a message's addresses are screened. */
  wallets: () => WalletIndexes;
}

/** The Travel Rule queues: TRP delivery through the outbox, and the screening of received messages. */
export function travelRuleJobHandlers(db: Db, sealer: () => Sealer, deps: TravelRuleJobDeps): Record<string, JobHandler> {
  return {
    [QUEUES.travelRuleDeliver]: deliveryJobHandler({ db, sealer, ...deps }),
    [QUEUES.travelRuleScreen]: screeningJobHandler(db, sealer, deps.screening, deps.wallets),
  };
}
export { TRAVEL_RULE_EVENTS } from './events.js';
