/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  startContactCheck:
    'Normalises the destination (E.164; email syntax, disposable domains flagged), applies per-destination limits (429 with Retry-After), sends a code and returns a pending contact check. Billed once per verification. 422 check_unavailable when the channel is not configured or its provider fails (nothing stored or billed).',
  confirmContactCheck:
    'passed when the code matches; a wrong code keeps the check pending with attempts_left one lower; an expired code or the last failed attempt fails it. A check that is no longer pending is returned unchanged.',
  resendContactCheck:
    'Replaces the code and restarts its expiry; attempts carry over. At most 3 sends per verification, 30 s apart, within the per-destination limits. Not billed again.',
};
