import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openApiDocument } from '../../scripts/openapi-document.js';
import { renderClientTypes, typeOf, type OpenApiDoc } from '../../scripts/client-types.js';

// The typed client's types are generated from the app's OpenAPI document and committed; a route schema
// changed without regenerating them fails here (run: npx tsx scripts/generate-client-types.ts).

test('src/sdk/openapi-types.ts is what the generator writes from the current OpenAPI document', async () => {
  const expected = renderClientTypes((await openApiDocument()) as OpenApiDoc);
  const committed = readFileSync('src/sdk/openapi-types.ts', 'utf8');
  assert.ok(expected.includes('createApiKey: {'), 'the document has the API key operations');
  assert.equal(committed, expected, 'src/sdk/openapi-types.ts is stale: run npx tsx scripts/generate-client-types.ts');
});

test('the schema-to-type rules', () => {
  assert.equal(typeOf({ type: 'string' }), 'string');
  assert.equal(typeOf({ type: ['string', 'null'] }), 'string | null');
  assert.equal(
    typeOf({ anyOf: [{ type: 'object', properties: { a: { anyOf: [{ const: 1 }, { const: 2 }] } } }, { type: 'null' }] }),
    '{\n  a?: 1 | 2;\n} | null',
  );
  assert.equal(typeOf({ type: 'array', items: { enum: ['x', 'y'] } }), 'Array<"x" | "y">');
  assert.equal(typeOf({ anyOf: [{ const: 'a' }, { const: 'b' }] }), '"a" | "b"');
  assert.equal(typeOf({ type: 'array', items: { type: 'integer' } }), 'number[]');
  assert.equal(typeOf({ $ref: '#/components/schemas/Error' }), 'components[\'schemas\']["Error"]');
  assert.equal(
    typeOf({ type: 'object', properties: { a: { type: 'string' }, 'b-c': { type: 'boolean' } }, required: ['a'] }),
    '{\n  a: string;\n  "b-c"?: boolean;\n}',
  );
  assert.equal(typeOf({ type: 'object', additionalProperties: { type: 'number' } }), 'Record<string, number>');
  assert.equal(typeOf({}), 'unknown');
});
