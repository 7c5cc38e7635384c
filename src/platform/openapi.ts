import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';
import { EVENT_CATALOG } from './event-catalog.js';

export const API_VERSION = '1.0.0';

const TAG_ORDER = [
  'Verifications',
  'Journeys',
  'Checks',
  'Monitoring',
  'Transactions',
  'Rules',
  'Cases',
  'Travel Rule',
  'Wallets',
  'Businesses',
  'Lists',
  'Webhooks',
  'Events',
  'Audit',
  'Usage',
  'API keys',
  'Sandbox',
  'Capture (session token)',
];
const TAG_DESCRIPTIONS: Record<string, string> = {
  'API keys':
    "The caller's own environment's keys: created with scopes the caller holds, the secret shown once, revoked at once. See docs/security.md.",
  Verifications: 'Verification sessions: one journey run for one subject, ending in a decision. See docs/verifications.md.',
  Journeys: 'Versioned definitions of what a session checks and how it decides.',
  Checks: 'Standalone checks, one engine verdict each; sessions run the same checks.',
  'Travel Rule':
    'Travel Rule messages between VASPs (IVMS101 over TRP) with their lifecycle, and the counterparty VASP directory. See docs/travel-rule.md.',
  Wallets: 'Wallet screening (direct list hits and indirect exposure over known transfers) and wallet monitoring. See docs/wallets.md.',
  Transactions:
    'KYT: transactions evaluated against the published rule set (score, status, rule outcomes, alerts). See docs/transactions.md.',
  Rules: 'KYT rule sets: CEL rules over declared aggregates, versions, a draft, maker-checker publication. See docs/transactions.md.',
  Businesses:
    'KYB: registry search (GLEIF, Companies House, BODS imported offline), business records, ownership graphs and UBO resolution. See docs/businesses.md.',
};

/** Registers the generated OpenAPI 3.1 document and the interactive reference at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Verity API',
        version: API_VERSION,
        description:
          'Self-hosted identity verification and financial-crime risk checks: verification sessions with journeys and a hosted capture flow, ' +
          'document, liveness, face match, face search, age, proof of address, document AI and contact checks, sanctions/PEP/adverse-media ' +
          'screening with ongoing monitoring, business verification (registry search, ownership and UBOs), transaction monitoring with versioned rules, ' +
          'wallet screening and monitoring, Travel Rule messaging, cases, allow/block lists and signed webhooks.\n\n' +
          'Authenticate with `Authorization: Bearer <API key>`. Every error has the body `{"error":{"code","message","field","request_id"}}`. ' +
          'Every POST accepts an `Idempotency-Key` header. Lists use cursor pagination (`limit`, `cursor`, `next_cursor`).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: config.publicBaseUrl }],
      // The reference lists the tags in this order: a session first, then what it is made of, then plumbing.
      tags: TAG_ORDER.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
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
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => ({
    ...app.swagger(),
    webhooks: webhooksSection(),
  }));
}

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, with the signed envelope around its data. */
export function webhooksSection(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [type, { description, data }] of Object.entries(EVENT_CATALOG)) {
    out[type] = {
      post: {
        summary: type,
        description: `${description}\n\nSigned with HMAC-SHA256 over the raw body (Verity-Signature header, lowercase hex); see docs/webhooks.md.`,
        operationId: `event_${type.replace(/[^a-zA-Z0-9]+/g, '_')}`,
        tags: ['Events'],
        parameters: [
          {
            name: 'Verity-Signature',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description: 'Comma-separated lowercase hex HMAC-SHA256 digests of the raw body, one per active secret.',
          },
          { name: 'Verity-Event-Id', in: 'header', required: true, schema: { type: 'string' } },
          {
            name: 'Verity-Timestamp',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            description: 'Unix seconds when this attempt was sent.',
          },
          { name: 'Verity-Delivery-Id', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'type', 'created_at', 'environment', 'sequence', 'data', 'delivery'],
                properties: {
                  id: { type: 'string' },
                  type: { type: 'string', const: type },
                  created_at: { type: 'string', format: 'date-time' },
                  environment: { type: 'string', enum: ['sandbox', 'production'] },
                  sequence: { type: 'integer', description: 'Increases with every event; order events of one resource by it.' },
                  resource: { type: ['object', 'null'], properties: { type: { type: 'string' }, id: { type: 'string' } } },
                  data: JSON.parse(JSON.stringify(data)),
                  delivery: {
                    type: 'object',
                    properties: { id: { type: 'string' }, attempt: { type: 'integer' }, sent_at: { type: 'string', format: 'date-time' } },
                  },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the event; anything else, a timeout or a redirect is retried.' } },
      },
    };
  }
  return out;
}
