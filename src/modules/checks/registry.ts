import { Type, type TSchema } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.js';
import { CHECK_TYPES, SCREENING_STATUSES, VERIFYING_STATUSES, checksModule, type CheckType, type OutcomeStatus } from './kernel/index.js';
import { documentCheckModule } from './document/index.js';
import { faceChecksModule } from './face/index.js';
import { proofOfAddressModule } from './proof-of-address/index.js';
import { documentAiModule } from './document-ai/index.js';
import { contactModule } from './contact/index.js';
import { screeningModule } from './screening/index.js';
import type { CheckRoutes, CheckTypeEntry, PipelineStep, StepOutcome, StepResources, StepState } from './check-type.js';
import { documentSettings, documentStep } from './steps/document.js';
import { ageSettings, ageStep, faceMatchSettings, faceMatchStep, livenessSettings, livenessStep } from './steps/face.js';
import { screeningSettings, screeningStep } from './steps/screening.js';
import { proofOfAddressSettings, proofOfAddressStep } from './steps/proof-of-address.js';
import { withoutEngine } from './steps/outcomes.js';

const document: CheckRoutes = { prefix: '/v1/checks', plugin: documentCheckModule };
const face: CheckRoutes = { prefix: '/v1/checks', plugin: faceChecksModule };
const proofOfAddress: CheckRoutes = { prefix: '/v1/checks', plugin: proofOfAddressModule };
const documentAi: CheckRoutes = { prefix: '/v1/checks', plugin: documentAiModule };
const contact: CheckRoutes = { prefix: '/v1/checks', plugin: contactModule };
const screening: CheckRoutes = { prefix: '/v1/checks/screening', plugin: screeningModule };

const verifying = { statuses: VERIFYING_STATUSES, reviewStatus: 'needs_review' } as const;

/**
 * Every check type, one entry each (the compiler insists on one per name in CHECK_TYPES): its statuses,
 * its standalone endpoint, and whether and how it runs in a journey. Journeys, decisions, reason codes,
 * the sandbox and the session pipeline are all derived from this table.
 */
export const CHECK_REGISTRY = {
  document: { type: 'document', ...verifying, routes: document, journey: { settings: documentSettings, step: documentStep } },
  liveness: { type: 'liveness', ...verifying, routes: face, journey: { settings: livenessSettings, step: livenessStep } },
  face_match: { type: 'face_match', ...verifying, routes: face, journey: { settings: faceMatchSettings, step: faceMatchStep } },
  face_search: { type: 'face_search', ...verifying, routes: face, journey: null },
  sanctions_pep: {
    type: 'sanctions_pep',
    statuses: SCREENING_STATUSES,
    reviewStatus: 'potential_match',
    routes: screening,
    journey: { settings: screeningSettings, step: screeningStep },
  },
  age_estimation: { type: 'age_estimation', ...verifying, routes: face, journey: { settings: ageSettings, step: ageStep } },
  proof_of_address: {
    type: 'proof_of_address',
    ...verifying,
    routes: proofOfAddress,
    journey: { settings: proofOfAddressSettings, step: proofOfAddressStep },
  },
  contact: { type: 'contact', ...verifying, routes: contact, journey: null },
  document_ai: { type: 'document_ai', ...verifying, routes: documentAi, journey: null },
  // Computed by the journey's decision from its risk bands, never by an engine of its own.
  risk_score: {
    type: 'risk_score',
    ...verifying,
    routes: null,
    journey: { settings: Type.Object({}, { additionalProperties: false }), step: null, decidedBy: 'risk_bands' },
  },
} as const satisfies Record<CheckType, CheckTypeEntry>;

/** Check types a journey may run, in registry order. */
export type JourneyCheckType = { [K in CheckType]: (typeof CHECK_REGISTRY)[K]['journey'] extends null ? never : K }[CheckType];
export const JOURNEY_CHECK_TYPES: readonly JourneyCheckType[] = CHECK_TYPES.filter(
  (t): t is JourneyCheckType => CHECK_REGISTRY[t].journey !== null,
);

/** The statuses a finished check of this type can have; the first is the clean outcome. */
export function statusesOf(type: CheckType): readonly OutcomeStatus[] {
  return CHECK_REGISTRY[type].statuses;
}

/** The journey settings schema of a check type that can run in a journey. */
export function journeySettingsOf(type: JourneyCheckType): TSchema {
  return (CHECK_REGISTRY[type] as CheckTypeEntry).journey!.settings;
}

/** The standalone check endpoints: the kernel's GET /v1/checks/{id} and each family's plugin once. */
export const CHECK_ROUTES: readonly CheckRoutes[] = [
  { prefix: '/v1/checks', plugin: checksModule },
  ...[...new Set(CHECK_TYPES.map((t) => CHECK_REGISTRY[t].routes).filter((r): r is CheckRoutes => r !== null))],
];

/**
 * Runs one journey check on the session's captures with the same evaluate functions the standalone
 * check endpoints call. Bad captures are outcomes (failed, with the engine's reason), never job
 * failures; a check that cannot run here (no list imported) goes to review. Other errors propagate,
 * so the job retries.
 */
export async function runStep(type: CheckType, settings: Record<string, unknown>, st: StepState, res: StepResources): Promise<StepOutcome> {
  const entry: CheckTypeEntry = CHECK_REGISTRY[type];
  const step: PipelineStep | null | undefined = entry.journey?.step;
  if (!step) throw new Error(`runStep: ${type} has no pipeline step`);
  try {
    return await step(settings, st, res);
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid_request') {
      return withoutEngine(
        type === 'sanctions_pep' ? 'potential_match' : 'failed',
        'capture_unusable',
        `The engine could not use the capture: ${err.message}`,
      );
    }
    if (err instanceof AppError && err.code === 'check_unavailable')
      return withoutEngine(entry.reviewStatus, 'check_unavailable', err.message);
    throw err;
  }
}
