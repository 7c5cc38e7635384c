// The public face of src/modules/webhooks: other modules import only what is exported here.
export { WebhookDispatcher } from './dispatcher.js';
export { webhookDeliveriesModule, webhooksModule } from './routes.js';
export { Event, EventsQuery } from './schemas.js';
