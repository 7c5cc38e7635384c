// The public face of src/modules/events: other modules import only what is exported here.
export { eventsModule } from './routes.js';
