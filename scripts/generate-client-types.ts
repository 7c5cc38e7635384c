// Writes src/sdk/openapi-types.ts (the typed client's types) from the app's generated OpenAPI document.
// Run after changing a route schema: npx tsx scripts/generate-client-types.ts
import { writeFileSync } from 'node:fs';
import { openApiDocument } from './openapi-document.js';
import { renderClientTypes, type OpenApiDoc } from './client-types.js';

export const CLIENT_TYPES_PATH = 'src/sdk/openapi-types.ts';

const text = renderClientTypes((await openApiDocument()) as OpenApiDoc);
writeFileSync(CLIENT_TYPES_PATH, text);
process.stdout.write(`wrote ${CLIENT_TYPES_PATH} (${text.length} characters)\n`);
