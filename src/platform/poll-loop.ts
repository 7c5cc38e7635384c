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

/**
 * A claim-and-run worker: each round claims up to its free capacity and starts the work without
 * waiting for it; the loop sleeps when nothing was claimed or capacity is full, and wakes when a
 * task finishes. The job runner and the webhook dispatcher are both this.
 */
export abstract class ClaimingRunner {
  protected readonly inFlight = new Set<Promise<void>>();
  private readonly loop: PollLoop;

  constructor(
    pollMs: number,
    private readonly capacity: number,
    onError: (err: unknown) => void,
  ) {
    this.loop = new PollLoop(async () => (await this.runOnce()) > 0 && this.inFlight.size < this.capacity, pollMs, onError);
  }

  /** Claims and starts one round of work; returns how much was claimed. */
  abstract runOnce(): Promise<number>;

  protected get freeCapacity(): number {
    return this.capacity - this.inFlight.size;
  }

  /** Tracks a started task so stop() waits for it and its end wakes the loop. */
  protected track(task: Promise<void>): void {
    this.inFlight.add(task);
    void task.finally(() => {
      this.inFlight.delete(task);
      this.loop.wake();
    });
  }

  /** Runs rounds until nothing is claimed and nothing is in flight (tests, CLI). */
  async drain(maxRounds = 10_000): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      const n = await this.runOnce();
      if (this.inFlight.size > 0) await Promise.race(this.inFlight);
      else if (n === 0) return;
    }
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the work in flight to finish (graceful shutdown). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }
}
