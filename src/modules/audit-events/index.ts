// The public face of src/modules/audit-events: other modules import only what is exported here.
export { auditEventsModule } from './routes.js';
