/** One outbound message in domain terms; providers keep their wire formats private. */
export interface OutboundMessage {
  to: string;
  /** Email only; SMS providers ignore it. */
  subject?: string;
  text: string;
}

export interface SendReceipt {
  provider: string;
  /** The provider's own id (SMTP Message-ID, Twilio SID), for support and delivery callbacks. */
  providerMessageId: string;
}

export interface MessagingProvider {
  readonly channel: 'email' | 'sms';
  readonly name: string;
  send(message: OutboundMessage): Promise<SendReceipt>;
  close?(): Promise<void> | void;
}

export type FailureKind = 'transient' | 'permanent';

/** A send failure the caller can act on: retry transient ones with backoff, surface permanent ones. */
export class MessagingError extends Error {
  readonly kind: FailureKind;
  readonly code: string;
  readonly provider: string;

  constructor(provider: string, kind: FailureKind, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MessagingError';
    this.provider = provider;
    this.kind = kind;
    this.code = code;
  }
}

// Network-level failures of the Node runtime that a later attempt may not see.
const TRANSIENT_NET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

export function isTransientNetworkCode(code: string | undefined): boolean {
  return code !== undefined && TRANSIENT_NET.has(code);
}
