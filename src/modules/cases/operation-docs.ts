/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  listCases:
    'Newest first. A case is a referred session waiting for a decision (kind verification_review) or a monitoring alert (kind screening_alert), or the alerts of one subject (kind alert_review: transaction rules, rule errors, wallets, businesses, Travel Rule; the latest 20 alerts inline, alert_count in total). Filters: state, kind (a case kind, or an alert kind: alert_review cases holding such an alert), owner (none: unassigned), severity, subject_type, subject_id, verification_id, created_gte, created_lt.',
  updateCase:
    'state: in_review (needs an owner), open (back to the queue), closed (with resolution; screening_alert and alert_review cases — closing an alert_review case closes its open alerts — a verification_review case closes with POST /v1/verifications/{id}/decision, which does not happen here). A closed case is final: 409 conflict. Emits case.updated.',
};
