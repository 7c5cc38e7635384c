export { MessagingError, type MessagingProvider, type OutboundMessage, type SendReceipt, type FailureKind } from './messaging-provider.js';
export { SmtpEmailProvider, classifySmtpError, type SmtpEmailConfig } from './smtp-email.js';
export { TwilioSmsProvider, classifyTwilioResponse, type TwilioSmsConfig } from './twilio-sms.js';
export { SandboxMessagingProvider, SANDBOX_CONTACT_CODE } from './sandbox.js';
