/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  listCases:
    'Newest first. A case is a referred session waiting for a decision (kind verification_review) or a monitoring alert (kind screening_alert). Filters: state, kind, owner (none: unassigned), severity, verification_id, created_gte, created_lt.',
  updateCase:
    'state: in_review (needs an owner), open (back to the queue), closed (with resolution; screening_alert cases only — a verification_review case closes with POST /v1/verifications/{id}/decision, which does not happen here). A closed case is final: 409 conflict. Emits case.updated.',
};
