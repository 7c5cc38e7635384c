/** Long OpenAPI descriptions of this module's operations, by operationId (kept out of the route declarations). */
export const OPERATION_DOCS = {
  getVerificationEvidence:
    'A zip: manifest.json (path, size, SHA-256 of every file), manifest.sha256, session.json (with transitions), decision.json (when decided), checks/<id>.json, media/<id>.<ext> (decrypted). The SHA-256 of manifest.json is also in the verification.evidence_exported audit row. A deleted session is 409 conflict.',
  getVerificationReport:
    'Subject, journey and version, status, decision, risk score and band, reason codes, each check with its main signals, and the transition trail. A deleted session is 409 conflict.',
  deleteVerification:
    'Destroys the media and personal data (subject reference and country, check results) of a finished session and keeps a tombstone (id, status, timestamps, decision) for audit and billing; emits verification.deleted. A processing session is 409 conflict (it decides within seconds). A waiting session is cancelled first (expired, or abandoned once capture started). A referred session may be deleted (its review case closes with resolution deleted, the tombstone stays referred). Repeating it returns the tombstone. Afterwards evidence and report are 409.',
};
