// The public face of src/modules/checks/contact: other modules import only what is exported here.
export { purgeContactHistory } from './repository.js';
export { contactModule } from './routes.js';
export { SENDERS } from './providers.js';
export { CONTACT_VERIFIED } from './confirm.js';
