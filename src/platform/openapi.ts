import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';

export const API_VERSION = '1.0.0';

/** Registers the generated OpenAPI 3.1 document and the interactive reference at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Verity API',
        version: API_VERSION,
        description:
          'Self-hosted identity verification and financial-crime risk checks: KYC, KYB, AML screening and KYT.\n\n' +
          'Authenticate with `Authorization: Bearer <API key>`. Every error has the body `{"error":{"code","message","field","request_id"}}`. ' +
          'Every POST accepts an `Idempotency-Key` header. Lists use cursor pagination (`limit`, `cursor`, `next_cursor`).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_sandbox_… or sk_live_… API key' } },
      },
      security: [{ apiKey: [] }],
    },
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true }, staticCSP: true });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
