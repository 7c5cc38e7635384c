// Reasons to reject a Travel Rule message, with whether a retry (a repaired or later message) may help.
// Codes follow TRISA's error codes (trisacrypto/trisa proto/trisa/api/v1beta1/errors.proto), lower-cased,
// so a TRISA error envelope maps one to one; TRP carries only a comment, which we fill with `code: message`.

export interface RejectCode {
  code: string;
  retryable: boolean;
  description: string;
}

const entries: RejectCode[] = [
  { code: 'unknown_wallet_address', retryable: false, description: 'the beneficiary VASP does not control the address' },
  { code: 'unknown_identity', retryable: false, description: 'the VASP does not recognise the sender' },
  { code: 'unknown_originator', retryable: false, description: 'the originator is not known to the originating VASP' },
  { code: 'unknown_beneficiary', retryable: false, description: 'the beneficiary is not a customer of the VASP' },
  { code: 'unsupported_currency', retryable: false, description: 'the asset or network is not supported' },
  { code: 'exceeded_trading_volume', retryable: true, description: 'a volume limit was reached; retry later' },
  { code: 'compliance_check_fail', retryable: false, description: 'an internal compliance check failed' },
  { code: 'no_compliance', retryable: false, description: 'the transfer cannot be made compliantly' },
  { code: 'high_risk', retryable: false, description: 'the transfer or a party is high risk' },
  { code: 'out_of_network', retryable: false, description: 'the counterparty is not on this Travel Rule network' },
  { code: 'missing_fields', retryable: true, description: 'required IVMS101 fields are missing; repair and resend' },
  { code: 'incomplete_identity', retryable: true, description: 'the identity information is incomplete' },
  { code: 'validation_error', retryable: true, description: 'the message failed validation; repair and resend' },
  { code: 'unparseable_identity', retryable: true, description: 'the IVMS101 payload could not be parsed' },
  { code: 'compliance_period_exceeded', retryable: false, description: 'the review period ran out' },
  { code: 'unavailable', retryable: true, description: 'the counterparty could not be reached; retry later' },
  { code: 'rejected', retryable: false, description: 'rejected without a more specific reason' },
];

export const REJECT_CODES: ReadonlyMap<string, RejectCode> = new Map(entries.map((e) => [e.code, e]));

/** The reject code entry for a code, accepting TRISA's upper-case spelling (COMPLIANCE_CHECK_FAIL). */
export function rejectCode(code: string): RejectCode | undefined {
  return REJECT_CODES.get(code.toLowerCase());
}
