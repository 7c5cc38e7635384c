import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { ModuleOptions } from '../../platform/app-types.js';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import type { CheckOutcome, CheckType, OutcomeStatus, SubjectFields } from './kernel/index.js';
import type { Resources } from '../../platform/resources.js';

/** A captured medium of the session, decrypted. */
export interface CapturedMedium {
  id: string;
  kind: string;
  contentType: string;
  data: Buffer;
}

/** What the session pipeline hands every step. */
export interface StepResources {
  /** Opens sealed personal data (list entries the screening step applies). */
  sealer: Sealer;
  /** The process's engines and the screening index (each step takes what it uses, on first use). */
  resources: Resources;
}

/** What the steps share as they run in journey order: the document's fields and portrait feed later steps. */
export interface StepState {
  ctx: RequestContext;
  media: Map<string, CapturedMedium>;
  subject: { reference: string | null; country: string | null };
  fields: SubjectFields;
  /** The document step read fields (they are stored with the results). */
  fieldsRead: boolean;
  portrait: Buffer | null;
  /** New media a step produced (the portrait crop), stored with the results. */
  produced: { kind: string; contentType: string; data: Buffer; check: CheckType }[];
  /** Which captured media each check read, for linking them to the check. */
  used: Map<CheckType, string[]>;
  /** The liveness challenge the capture asked for (actions in order), when the journey's liveness uses one. */
  challenge?: readonly string[] | null;
}

export type StepOutcome = CheckOutcome;

/** Runs one check of a session on its captures; settings are the journey's, already validated and defaulted. */
export type PipelineStep = (settings: Record<string, unknown>, st: StepState, res: StepResources) => Promise<StepOutcome>;

/** The plugin that serves a check family's standalone endpoints, and where it is mounted. */
export interface CheckRoutes {
  prefix: string;
  plugin: FastifyPluginAsync<ModuleOptions>;
}

/**
 * Everything the service knows about one check type, in one place: adding a check type is adding one
 * entry to the registry (registry.ts). The journey schema, journey validation, decisions, reason codes,
 * the sandbox and the session pipeline all read it.
 */
export interface CheckTypeEntry {
  type: CheckType;
  /** Statuses a finished check of this type can have; the first is the clean one. */
  statuses: readonly OutcomeStatus[];
  /** The status a check gets when it could not run and a person must look (no list imported …). */
  reviewStatus: OutcomeStatus;
  /** The standalone endpoint(s) serving this type (null: only a session computes it). */
  routes: CheckRoutes | null;
  /** In a journey: its settings schema and, unless the decision itself computes it, the pipeline step. */
  journey: { settings: TSchema; step: PipelineStep | null; decidedBy?: 'risk_bands' } | null;
}
