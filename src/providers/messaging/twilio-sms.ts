import {
  isTransientNetworkCode,
  MessagingError,
  type MessagingProvider,
  type OutboundMessage,
  type SendReceipt,
} from './messaging-provider.js';

/**
 * SMS through the Twilio Programmable Messaging REST API (or any service speaking its shape):
 * POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To/From/Body,
 * HTTP basic auth AccountSid:AuthToken, 201 with a JSON message resource.
 */
export interface TwilioSmsConfig {
  accountSid: string;
  authToken: string;
  /** Sender number in E.164, or use messagingServiceSid. */
  from?: string;
  messagingServiceSid?: string;
  baseUrl?: string;
  timeoutMs?: number;
}

const PROVIDER = 'twilio';

interface TwilioMessage {
  sid?: string;
  status?: string;
}

interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
}

// Twilio error codes that will not change on retry: invalid/unreachable To, blocked, unsubscribed, bad From.
const PERMANENT_CODES = new Set([21211, 21214, 21408, 21606, 21610, 21612, 21614, 21659, 30003, 30004, 30005, 30006, 30007]);

export class TwilioSmsProvider implements MessagingProvider {
  readonly channel = 'sms' as const;
  readonly name = PROVIDER;
  private readonly endpoint: string;
  private readonly authorization: string;

  constructor(private readonly config: TwilioSmsConfig) {
    if (!config.from && !config.messagingServiceSid) throw new Error('TwilioSmsProvider needs `from` or `messagingServiceSid`');
    const base = (config.baseUrl ?? 'https://api.twilio.com').replace(/\/+$/, '');
    this.endpoint = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  }

  async send(message: OutboundMessage): Promise<SendReceipt> {
    const form = new URLSearchParams({ To: message.to, Body: message.text });
    if (this.config.messagingServiceSid) form.set('MessagingServiceSid', this.config.messagingServiceSid);
    else if (this.config.from) form.set('From', this.config.from);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { authorization: this.authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause;
      const timedOut = (err as { name?: string }).name === 'TimeoutError';
      const kind = timedOut || isTransientNetworkCode(cause?.code) || err instanceof TypeError ? 'transient' : 'permanent';
      throw new MessagingError(PROVIDER, kind, timedOut ? 'timeout' : 'network', (err as Error).message, { cause: err });
    }
    const body = await readJson(response);
    if (response.status === 200 || response.status === 201) {
      const sid = (body as TwilioMessage | null)?.sid;
      if (!sid) throw new MessagingError(PROVIDER, 'transient', 'malformed_response', 'response had no message sid');
      return { provider: PROVIDER, providerMessageId: sid };
    }
    throw classifyTwilioResponse(response.status, body as TwilioErrorBody | null);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export function classifyTwilioResponse(status: number, body: TwilioErrorBody | null): MessagingError {
  const code = body?.code;
  const message = body?.message ?? `HTTP ${status}`;
  if (status === 429 || status >= 500) return new MessagingError(PROVIDER, 'transient', `http_${status}`, message);
  if (code !== undefined && PERMANENT_CODES.has(code)) return new MessagingError(PROVIDER, 'permanent', `twilio_${code}`, message);
  if (status === 401 || status === 403) return new MessagingError(PROVIDER, 'permanent', 'auth_failed', message);
  return new MessagingError(PROVIDER, 'permanent', code !== undefined ? `twilio_${code}` : `http_${status}`, message);
}
