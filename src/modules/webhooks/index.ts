// The public face of src/modules/webhooks: other modules import only what is exported here.
export { WebhookDispatcher } from './dispatcher.js';
export { subscribesTo } from './delivery-repository.js';
export { webhookDeliveriesModule, webhooksModule } from './routes.js';
export { Event, EventsQuery } from './schemas.js';
