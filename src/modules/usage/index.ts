// The public face of src/modules/usage: other modules import only what is exported here.
export { usageModule } from './routes.js';
