import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import { IdParam, standardErrors } from '../../platform/schemas.js';
import {
  CreateRule,
  CreateSnooze,
  DiffQuery,
  PublishRules,
  Rule,
  RuleDiff,
  RuleDraft,
  RuleSet,
  RulesQuery,
  Snooze,
  UpdateDraft,
  UpdateRule,
  ValidateRules,
  ValidationResult,
} from './schemas.js';
import { getDraft, getRules } from './get-rules.js';
import { createRule, updateDraft, updateRule } from './edit-draft.js';
import { validateRules } from './validate-rules.js';
import { publishRules } from './publish-rules.js';
import { diffRules } from './diff-rules.js';
import { snoozeRule } from './snooze-rule.js';

/** KYT rule sets: versions, the draft, validation, maker-checker publication, diffs and snoozes. */
export const rulesModule: FastifyPluginAsync<ModuleOptions> = async (app) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Rules'];

  r.get(
    '',
    {
      config: { scope: 'rules:read' },
      schema: {
        tags,
        operationId: 'getRules',
        summary: 'Read the rule set with versions and authors',
        description:
          'The current published rule set (thresholds, declared aggregates, rules with author and reviewer), every published version, and a summary of the pending draft. ?version= reads a published version (history).',
        querystring: RulesQuery,
        response: { 200: RuleSet, ...standardErrors },
      },
    },
    async (req) => getRules({ ctx: req.ctx, version: req.query.version }),
  );

  r.get(
    '/draft',
    {
      config: { scope: 'rules:read' },
      schema: {
        tags,
        operationId: 'getRuleDraft',
        summary: 'Read the draft rule set',
        description:
          'Revision 0 is not stored yet: the current version, or the starter typology library (every rule draft) before any publication.',
        response: { 200: RuleDraft, ...standardErrors },
      },
    },
    async (req) => getDraft({ ctx: req.ctx }),
  );

  r.patch(
    '/draft',
    {
      config: { scope: 'rules:write' },
      schema: {
        tags,
        operationId: 'updateRuleDraft',
        summary: "Change the draft's thresholds, declared aggregates or change note",
        body: UpdateDraft,
        response: { 200: RuleDraft, ...standardErrors },
      },
    },
    async (req) => updateDraft({ ctx: req.ctx, input: req.body }),
  );

  r.get(
    '/diff',
    {
      config: { scope: 'rules:read' },
      schema: {
        tags,
        operationId: 'diffRules',
        summary: 'Compare two rule set versions (or a version and the draft)',
        querystring: DiffQuery,
        response: { 200: RuleDiff, ...standardErrors },
      },
    },
    async (req) => diffRules({ ctx: req.ctx, from: req.query.from, to: req.query.to }),
  );

  r.post(
    '/validate',
    {
      config: { scope: 'rules:read' },
      schema: {
        tags,
        operationId: 'validateRules',
        description:
          "Always 200 with the diagnostics (field, code, message, position): nothing is stored. With `sample` (a rule context: tx, subject, counterparty, wallet, lists, agg), `sample_result` gives what the draft would decide for it, each active and test rule's outcome (a test rule's hit is shadow_hit) with the values it read, and the expression's own outcome.",
        summary: 'Compile and type-check an expression (and aggregate declarations); test the draft against a sample transaction',
        body: ValidateRules,
        response: { 200: ValidationResult, ...standardErrors },
      },
    },
    async (req) => validateRules({ ctx: req.ctx, input: req.body }),
  );

  r.post(
    '/publish',
    {
      config: { scope: 'rules:publish' },
      schema: {
        tags,
        operationId: 'publishRules',
        summary: 'Publish the draft as the next version (maker-checker)',
        description:
          'The publisher names the draft revision it reviewed. 409 conflict: field revision when the draft changed since (or there is none), field author when the publisher edited the draft (a second principal must publish). Emits ruleset.published.',
        body: PublishRules,
        response: { 201: RuleSet, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return publishRules({ ctx: req.ctx, input: req.body });
    },
  );

  r.post(
    '',
    {
      config: { scope: 'rules:write' },
      schema: {
        tags,
        operationId: 'createRule',
        summary: 'Add a rule to the draft',
        description:
          'A bad expression is 400 with field expression and its line and column in the message (POST /v1/rules/validate to check first).',
        body: CreateRule,
        response: { 201: Rule, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return createRule({ ctx: req.ctx, input: req.body });
    },
  );

  r.patch(
    '/:id',
    {
      config: { scope: 'rules:write' },
      schema: {
        tags,
        operationId: 'updateRule',
        summary: 'Change a rule in the draft (status, expression, score…)',
        params: IdParam,
        body: UpdateRule,
        response: { 200: Rule, ...standardErrors },
      },
    },
    async (req) => updateRule({ ctx: req.ctx, id: req.params.id, input: req.body }),
  );

  r.post(
    '/:id/snoozes',
    {
      config: { scope: 'rules:write' },
      schema: {
        tags,
        operationId: 'snoozeRule',
        summary: 'Snooze a rule for one subject until a moment',
        description: 'The rule is still evaluated for that subject (outcome snoozed, would_hit recorded) but does not count.',
        params: IdParam,
        body: CreateSnooze,
        response: { 201: Snooze, ...standardErrors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return snoozeRule({ ctx: req.ctx, id: req.params.id, input: req.body });
    },
  );
};
