/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  checkDocumentAi:
    'Each field names how to find it (region, then label anchor, then pattern, else the first valid value of its type) and returns its value, normalised value, validity, confidence and box. PDF structure and image metadata/compression are checked for tampering: a failed tamper signal fails the check; a missing required or invalid field sends it to review.',
};
