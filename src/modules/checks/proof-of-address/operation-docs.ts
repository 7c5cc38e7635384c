/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  checkProofOfAddress:
    'Classifies the document (utility bill, bank statement, government letter, tenancy agreement, other), reads the holder name, address and issue date, and validates them against subject_name, country and max_age_days. Tamper signals of the file are attached. JSON with base64 `document`, or multipart/form-data with a `document` file.',
};
