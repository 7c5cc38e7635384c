// The public face of src/modules/api-keys: the /v1/api-keys routes (the table and the lookup stay in platform/api-keys.ts).
export { apiKeysModule } from './routes.js';
