import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import {
  AttachDocument,
  PersonParams,
  VerifyPerson,
  Business,
  BusinessDocument,
  CreateBusiness,
  SearchBusinesses,
  SearchPage,
  Ubos,
  UbosQuery,
} from './schemas.js';
import { searchBusinesses } from './search.js';
import { createBusiness, prepareBusiness } from './create.js';
import { getBusiness } from './get.js';
import { getUbos } from './ubos.js';
import { CreatedVerification, SCREENING_INDEX, TEXT_CHECKS } from './deps.js';
import { verifyBusinessPerson } from './person-verification.js';
import { attachDocument } from './documents.js';
import { exportBods } from './export-bods.js';
import { liveRegistries } from './live.js';
import { Type } from '@sinclair/typebox';

export const businessesModule: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  // Taken per request: building the app must not start the screening index (a process that never creates a business never loads it).
  const screening = () => ({ sealer: deps.sealer, cache: deps.resources.get(SCREENING_INDEX) });
  const live = liveRegistries(deps.config.businesses);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Businesses'];

  r.post(
    '/search',
    {
      config: { scope: 'businesses:read' },
      schema: {
        tags,
        operationId: 'searchBusinesses',
        summary: 'Search the imported registries by name, LEI or registration number',
        description:
          'Exact LEI and registration-number matches rank first (score 1); names are compared with the screening engine (legal forms, transliteration, word order). Reads only: nothing is stored.',
        body: SearchBusinesses,
        response: { 200: SearchPage, ...standardErrors },
      },
    },
    async (req) => searchBusinesses(req.ctx, req.body, live),
  );

  r.post(
    '',
    {
      config: { scope: 'businesses:write' },
      schema: {
        tags,
        operationId: 'createBusiness',
        summary: 'Create a business record from a registry search result or manual data',
        description:
          '201 with the new record; 200 with the existing one when this environment already has a record of the same registry entry (source and source_ref).',
        body: CreateBusiness,
        response: { 200: Business, 201: Business, ...standardErrors },
      },
    },
    async (req, reply) => {
      const prepared = await prepareBusiness(req.ctx, req.body, screening(), live);
      reply.code(prepared.existing ? 200 : 201);
      return prepared.existing ? getBusiness(req.ctx, prepared.existing.id) : createBusiness(req.ctx, req.body, prepared);
    },
  );

  r.get(
    '/:id',
    {
      config: { scope: 'businesses:read' },
      schema: {
        tags,
        operationId: 'getBusiness',
        summary: 'Retrieve registry data, officers and the ownership graph',
        params: IdParam,
        response: { 200: Business, ...standardErrors },
      },
    },
    async (req) => getBusiness(req.ctx, req.params.id),
  );

  r.get(
    '/:id/ubos',
    {
      config: { scope: 'businesses:read' },
      schema: {
        tags,
        operationId: 'getBusinessUbos',
        summary: 'Resolve ownership to natural persons with ranges, paths and reasons',
        params: IdParam,
        querystring: UbosQuery,
        response: { 200: Ubos, ...standardErrors },
      },
    },
    async (req) => getUbos(req.ctx, req.params.id, req.query),
  );

  r.post(
    '/:id/documents',
    {
      config: { scope: 'businesses:write' },
      schema: {
        tags,
        operationId: 'attachBusinessDocument',
        summary: 'Attach a corporate document, classify it and check it against the record',
        description:
          'Reads the document with the document-AI text extraction (text layer or OCR, tamper signals), classifies it by the phrases it prints, extracts the company name, number and date and compares them with the registry record. A mismatch, low confidence or a tamper signal gives needs_review with reasons. The file itself is not kept.',
        params: IdParam,
        body: AttachDocument,
        response: { 201: BusinessDocument, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return attachDocument(req.ctx, deps.resources.get(TEXT_CHECKS), req.params.id, req.body);
    },
  );

  r.post(
    '/:id/persons/:node_id/verifications',
    {
      config: { scope: 'verifications:write' },
      schema: {
        tags,
        operationId: 'createBusinessPersonVerification',
        summary: 'Send a UBO or officer of the business through a KYC verification session',
        description:
          "Creates a verification (as POST /v1/verifications does: the journey's checks, a hosted URL and a session token) for a natural person of the business's ownership graph, with the registered name as the declared name, and links it to the business: GET /v1/businesses/{id} (officers) and GET /v1/businesses/{id}/ubos (owners) show each person's latest session and its status. 404 when the node is not a person of this business; 409 for an anonymous or unknown person.",
        params: PersonParams,
        body: VerifyPerson,
        response: { 201: CreatedVerification, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return verifyBusinessPerson(
        req.ctx,
        { sealer: deps.sealer, hostedBaseUrl: deps.config.hostedBaseUrl },
        req.params.id,
        req.params.node_id,
        req.body,
      );
    },
  );

  r.get(
    '/:id/bods',
    {
      config: { scope: 'businesses:read' },
      schema: {
        tags,
        operationId: 'exportBusinessBods',
        summary: 'Export the ownership graph as BODS 0.4 statements',
        description:
          'An array of BODS 0.4 statements (entity, person and relationship records) for the business and its owners, each valid against the BODS JSON Schema. Unspecified parties are stated inside their relationship.',
        params: IdParam,
        response: { 200: Type.Array(Type.Record(Type.String(), Type.Unknown())), ...standardErrors },
      },
    },
    async (req) => exportBods(req.ctx, req.params.id),
  );
};
