// The public face of src/modules/capture: other modules import only what is exported here.
export { hostedPageModule } from './hosted-page.js';
export { captureModule } from './routes.js';
export { pageSecurityHeaders } from './hosted-page.js';
