export { startVerification, confirmVerification } from './otp.js';
export type {
  VerificationState,
  ContactChannel,
  StartInput,
  StartResult,
  StartRefusal,
  ConfirmResult,
  ConfirmOutcome,
  VerificationStatus,
} from './otp.js';
export { defaultOtpConfig, resolveOtpConfig, type OtpConfig, type RateWindow } from './otp-config.js';
export { decideDestinationRate, type RateDecision } from './rate-limit.js';
export { hashCode, digestsEqual } from './otp-code.js';
export { checkPhone, type PhoneCheck, type PhoneOptions } from './phone.js';
export { checkEmail, checkEmailSyntax, type EmailCheck, type EmailOptions, type MxResolver } from './email.js';
export { isDisposableDomain } from './disposable-domains.js';
export { normalizeDestination, renderCodeMessage, type DestinationCheck } from './destination.js';
