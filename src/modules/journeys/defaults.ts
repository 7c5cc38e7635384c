import type { JourneyDefinition } from './definition.js';

const verifyFailures = (types: JourneyDefinition['checks'][number]['type'][]) =>
  types.map((check) => ({ check, statuses: ['failed' as const] }));
const verifyReviews = (types: JourneyDefinition['checks'][number]['type'][]) =>
  types.map((check) => ({ check, statuses: ['needs_review' as const] }));

/**
 * The journeys every tenant starts with, in each environment, published as version 1. They are
 * ordinary journeys: a tenant changes one by posting a new version under the same key.
 */
export const DEFAULT_JOURNEYS: { key: string; name: string; definition: JourneyDefinition }[] = [
  {
    key: 'kyc_standard',
    name: 'Standard KYC: document, liveness, face match, sanctions and PEP screening, risk score',
    definition: {
      checks: [
        { type: 'document', settings: { accepted_types: ['passport', 'id_card', 'driving_licence'] } },
        { type: 'liveness', settings: { threshold: 0.5 } },
        // No explicit threshold: the face engine's calibrated default (FACE_MATCH_THRESHOLD) applies.
        { type: 'face_match', settings: {} },
        { type: 'sanctions_pep', settings: { datasets: ['sanctions', 'pep'], threshold: 0.8 } },
        { type: 'risk_score', settings: {} },
      ],
      decision_rules: {
        decline: [...verifyFailures(['document', 'liveness', 'face_match']), { check: 'sanctions_pep', statuses: ['match'] }],
        refer: [...verifyReviews(['document', 'liveness', 'face_match']), { check: 'sanctions_pep', statuses: ['potential_match'] }],
        decline_at_band: null,
        refer_at_band: 'high',
      },
      risk_scoring: {
        signals: [
          { check: 'document', status: 'needs_review', points: 25 },
          { check: 'document', status: 'failed', points: 60 },
          { check: 'liveness', status: 'needs_review', points: 25 },
          { check: 'liveness', status: 'failed', points: 60 },
          { check: 'face_match', status: 'needs_review', points: 20 },
          { check: 'face_match', status: 'failed', points: 60 },
          { check: 'sanctions_pep', status: 'potential_match', points: 45 },
          { check: 'sanctions_pep', status: 'match', points: 100 },
        ],
        medium_from: 25,
        high_from: 70,
      },
      session_lifetime_seconds: 3600,
      enrol_on_approval: { face_search: true, monitoring: true },
    },
  },
  {
    key: 'kyc_screening_only',
    name: 'Screening only: sanctions and PEP screening, risk score',
    definition: {
      checks: [
        { type: 'sanctions_pep', settings: { datasets: ['sanctions', 'pep'], threshold: 0.8 } },
        { type: 'risk_score', settings: {} },
      ],
      decision_rules: {
        decline: [{ check: 'sanctions_pep', statuses: ['match'] }],
        refer: [{ check: 'sanctions_pep', statuses: ['potential_match'] }],
        decline_at_band: null,
        refer_at_band: 'high',
      },
      risk_scoring: {
        signals: [
          { check: 'sanctions_pep', status: 'potential_match', points: 45 },
          { check: 'sanctions_pep', status: 'match', points: 100 },
        ],
        medium_from: 25,
        high_from: 70,
      },
      session_lifetime_seconds: 3600,
    },
  },
];
