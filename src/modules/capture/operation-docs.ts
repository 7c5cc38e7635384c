/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  getCaptureSession:
    'Works from creation until the token expires (expires_at), also after submission, so a page can show progress. The decision is never shown: approved, declined and referred read as complete.',
  submitCapture:
    'Every required step must be captured (else 400 with field = the missing kind). 409 once submitted or when the session no longer waits on the subject.',
};
