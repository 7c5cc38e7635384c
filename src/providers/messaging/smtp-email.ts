import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import {
  isTransientNetworkCode,
  MessagingError,
  type MessagingProvider,
  type OutboundMessage,
  type SendReceipt,
} from './messaging-provider.js';

export interface SmtpEmailConfig {
  /** e.g. `smtp://user:pass@mail.example.com:587` or `smtps://...:465`. */
  url: string;
  from: string;
  /** Self-signed certificates in test peers only; never in production. */
  allowInsecureTls?: boolean;
  timeoutMs?: number;
}

const PROVIDER = 'smtp';

/** Email over SMTP through nodemailer. One pooled-less transport; each send opens its own connection. */
export class SmtpEmailProvider implements MessagingProvider {
  readonly channel = 'email' as const;
  readonly name = PROVIDER;
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;
  private readonly from: string;

  constructor(config: SmtpEmailConfig) {
    const timeout = config.timeoutMs ?? 10_000;
    this.from = config.from;
    const options: SMTPTransport.Options = {
      url: config.url,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      ...(config.allowInsecureTls ? { tls: { rejectUnauthorized: false } } : {}),
    };
    this.transport = nodemailer.createTransport(options);
  }

  async send(message: OutboundMessage): Promise<SendReceipt> {
    try {
      const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject ?? '', text: message.text });
      const rejected = info.rejected ?? [];
      if (rejected.length > 0)
        throw new MessagingError(PROVIDER, 'permanent', 'recipient_rejected', `recipient rejected: ${rejected.join(', ')}`);
      return { provider: PROVIDER, providerMessageId: info.messageId };
    } catch (err) {
      throw classifySmtpError(err);
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** 4xx replies are temporary by RFC 5321 (greylisting, mailbox busy); 5xx are final. */
export function classifySmtpError(err: unknown): MessagingError {
  if (err instanceof MessagingError) return err;
  const e = err as { code?: string; responseCode?: number; message?: string };
  const message = e.message ?? String(err);
  if (typeof e.responseCode === 'number') {
    const kind = e.responseCode >= 400 && e.responseCode < 500 ? 'transient' : 'permanent';
    return new MessagingError(PROVIDER, kind, `smtp_${e.responseCode}`, message, { cause: err });
  }
  if (e.code === 'EAUTH') return new MessagingError(PROVIDER, 'permanent', 'auth_failed', message, { cause: err });
  if (e.code === 'EENVELOPE') return new MessagingError(PROVIDER, 'permanent', 'bad_envelope', message, { cause: err });
  if (e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'ESOCKET' || e.code === 'EDNS' || isTransientNetworkCode(e.code)) {
    return new MessagingError(PROVIDER, 'transient', 'connection_failed', message, { cause: err });
  }
  return new MessagingError(PROVIDER, 'transient', 'unknown', message, { cause: err });
}
