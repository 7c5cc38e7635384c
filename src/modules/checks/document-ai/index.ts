// The public face of src/modules/checks/document-ai: other modules import only what is exported here.
export { documentAiModule } from './routes.js';
