import { createServer, type IncomingMessage, type Server } from 'node:http';
import { verifyWebhook, type VerityEvent } from '../../src/sdk/webhooks.js';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  event: VerityEvent | null;
  verified: boolean;
  at: number;
}

export type Behaviour = (
  n: number,
  body: string,
) => { status?: number; delayMs?: number; headers?: Record<string, string>; hang?: boolean };

/** A real HTTP receiver on loopback that verifies signatures with the SDK and can fail on purpose. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  behaviour: Behaviour = () => ({ status: 200 });
  private server: Server | null = null;
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];
  private hanging = new Set<() => void>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let event: VerityEvent | null = null;
        let verified = false;
        try {
          event = verifyWebhook({ rawBody: body, signature: req.headers['verity-signature'], secrets: this.secrets });
          verified = true;
        } catch {
          try {
            event = JSON.parse(body) as VerityEvent;
          } catch {
            event = null;
          }
        }
        this.received.push({ headers: req.headers, body, event, verified, at: Date.now() });
        const b = this.behaviour(this.received.length, body);
        const respond = () => {
          if (res.destroyed) return;
          res.writeHead(b.status ?? 200, { 'content-type': 'text/plain', ...(b.headers ?? {}) });
          res.end(`received #${this.received.length}`);
        };
        if (b.hang) this.hanging.add(respond);
        else if (b.delayMs) setTimeout(respond, b.delayMs);
        else respond();
        this.check();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hook`;
    return this;
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => (w.pred() ? (w.resolve(), false) : true));
  }

  /** Resolves when pred holds, or rejects after timeoutMs. */
  waitFor(pred: (r: Received[]) => boolean, timeoutMs = 20_000): Promise<void> {
    if (pred(this.received)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`receiver: condition not met in ${timeoutMs} ms (${this.received.length} received)`)),
        timeoutMs,
      );
      this.waiters.push({ pred: () => pred(this.received), resolve: () => (clearTimeout(t), resolve()) });
    });
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
