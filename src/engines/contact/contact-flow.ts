import type { MessagingProvider, SendReceipt } from '../../providers/messaging/messaging-provider.js';
import { MessagingError } from '../../providers/messaging/messaging-provider.js';
import { normalizeDestination, renderCodeMessage, type DestinationCheck } from './destination.js';
import type { EmailOptions } from './email.js';
import { resolveOtpConfig, type OtpConfig } from './otp-config.js';
import { startVerification, type ContactChannel, type StartRefusal, type VerificationState } from './otp.js';
import type { PhoneOptions } from './phone.js';

export interface StartAndSendInput {
  channel: ContactChannel;
  /** As the caller typed it; normalised here. */
  destination: string;
  now: Date;
  secret: string | Buffer;
  /** Earlier sends to this destination (any verification), read by the caller from storage. */
  destinationHistory?: (normalized: string) => Promise<readonly Date[]> | readonly Date[];
  config?: Partial<OtpConfig>;
  phone?: PhoneOptions;
  email?: EmailOptions;
  brand?: string;
}

export type StartAndSendResult =
  | { status: 'sent'; state: VerificationState; destination: DestinationCheck; receipt: SendReceipt }
  | { status: 'invalid_destination'; destination: DestinationCheck }
  | { status: 'refused'; reason: StartRefusal; retryAfterSeconds?: number; destination: DestinationCheck }
  /** Nothing to persist: the code never left, so the send does not count against the limits. */
  | { status: 'delivery_failed'; destination: DestinationCheck; error: MessagingError };

/**
 * The start step end to end: validate and normalise the destination, apply the limits, make the
 * code and send it. The caller persists `state` (and the send time in the destination history) only
 * when the status is `sent`.
 */
export async function startAndSend(previous: VerificationState | null, input: StartAndSendInput, provider: MessagingProvider): Promise<StartAndSendResult> {
  if (provider.channel !== input.channel) throw new Error(`provider ${provider.name} sends ${provider.channel}, not ${input.channel}`);
  const destination = await normalizeDestination(input.channel, input.destination, { phone: input.phone, email: input.email });
  if (!destination.ok || !destination.normalized) return { status: 'invalid_destination', destination };
  const history = input.destinationHistory ? await input.destinationHistory(destination.normalized) : [];
  const started = startVerification(previous, { channel: input.channel, destination: destination.normalized, now: input.now, secret: input.secret, destinationHistory: history, config: input.config });
  if (!started.ok) return { status: 'refused', reason: started.reason, retryAfterSeconds: started.retryAfterSeconds, destination };
  const message = renderCodeMessage(started.code, resolveOtpConfig(input.config).ttlSeconds, input.brand);
  try {
    const receipt = await provider.send({ to: destination.normalized, subject: message.subject, text: message.text });
    return { status: 'sent', state: started.state, destination, receipt };
  } catch (err) {
    const error = err instanceof MessagingError ? err : new MessagingError(provider.name, 'transient', 'unknown', (err as Error).message, { cause: err });
    return { status: 'delivery_failed', destination, error };
  }
}
