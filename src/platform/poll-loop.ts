/**
 * A loop that calls `tick` until stopped. When a tick reports it has nothing more to do right
 * now, the loop sleeps `pollMs` or until `wake()` (a finished task freeing capacity, a shutdown).
 */
export class PollLoop {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly tick: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let busy = false;
        try {
          busy = await this.tick();
        } catch (err) {
          this.onError(err);
        }
        if (!busy && this.running) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, this.pollMs);
            this.wakeUp = () => {
              clearTimeout(t);
              resolve();
            };
          });
          this.wakeUp = null;
        }
      }
    })();
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** Stops after the current tick. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }
}
