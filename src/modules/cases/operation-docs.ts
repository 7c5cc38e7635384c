/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  claimNextCase:
    'The review queue\'s "claim next": the most severe, then oldest, case that is open and has no owner (optionally of one kind and severity) gets the caller as owner and moves to in_review, in one transaction (trail row, audit case.updated, event case.updated). Concurrent claims never get the same case (the row is taken with SKIP LOCKED). A console operator claims for themself (owner operator:<id>); once a verification review case is claimed, only its owner (or an API key) records the session\'s decision. An empty queue answers case: null.',
  listCases:
    'Newest first. A case is a referred session waiting for a decision (kind verification_review) or a monitoring alert (kind screening_alert), or the alerts of one subject (kind alert_review: transaction rules, rule errors, wallets, businesses, Travel Rule; the latest 20 alerts inline, alert_count in total). Filters: state, kind (a case kind, or an alert kind: alert_review cases holding such an alert), owner (none: unassigned), severity, subject_type, subject_id, verification_id, created_gte, created_lt.',
  updateCase:
    'state: in_review (needs an owner), open (back to the queue), closed (with resolution; screening_alert and alert_review cases — closing an alert_review case closes its open alerts — a verification_review case closes with POST /v1/verifications/{id}/decision, which does not happen here). A closed case is final: 409 conflict. Emits case.updated.',
};
