/** A verifying check (document, face, proof of address …) ends in one of these; the first is the clean one. */
export const VERIFYING_STATUSES = ['passed', 'failed', 'needs_review'] as const;
/** A screening check ends in one of these; the first is the clean one. */
export const SCREENING_STATUSES = ['no_match', 'potential_match', 'match'] as const;
export type OutcomeStatus = (typeof VERIFYING_STATUSES)[number] | (typeof SCREENING_STATUSES)[number];
