/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  createScreeningCheck:
    'Returns a check of type sanctions_pep whose status is the decision: no_match (no hit at or above the threshold), potential_match (a hit to review), or match (an identifier match, a blocklist entry, or a near-exact name confirmed by date of birth or, for organisations and vessels, country). result.hits carries each hit with its explanation. Allowlist entries of kind screening_entity for the subject_reference suppress that hit; blocklist entries force a match. Production screens only imported official lists (422 check_unavailable when none is imported); sandbox keys also screen the built-in sandbox list.',
};
