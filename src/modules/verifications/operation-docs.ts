/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  createVerification:
    "The journey must be published in the key's environment (else 400 with field journey). The session starts awaiting_subject with every check pending. session_token (and the token in hosted_url) is shown only in this response.",
  correctVerificationFields:
    "Only while the session is referred (409 conflict otherwise, also once deleted). Correcting a name, date of birth or nationality re-runs the session's sanctions_pep check with the corrected fields and recomputes risk and reason codes; the session stays referred (decide with POST …/decision). Returns the session with fields and corrections. The audit row verification.fields_corrected holds salted hashes of the values, never the values.",
  recordVerificationDecision:
    'Only for a referred session (409 conflict otherwise): it becomes approved or declined, its review case closes and verification.completed is sent.',
};
