import { hostname } from 'node:os';
import type { Db, Queryable } from './db.js';
import { newId } from './ids.js';
import { ClaimingRunner } from './poll-loop.js';

export interface JobRow {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** At most one queued or running job with this key exists; a second enqueue is a no-op. */
  dedupeKey?: string;
}

/** Enqueues a job, normally inside the transaction of the change that needs it. */
export async function enqueueJob(
  tx: Queryable,
  queue: string,
  payload: Record<string, unknown>,
  opts: EnqueueOptions = {},
): Promise<string | null> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO jobs (id, queue, payload, run_at, max_attempts, dedupe_key) VALUES ($1, $2, $3::jsonb, coalesce($4, now()), $5, $6)
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING RETURNING id`,
    [newId('job'), queue, JSON.stringify(payload), opts.runAt ?? null, opts.maxAttempts ?? 10, opts.dedupeKey ?? null],
  );
  return rows[0]?.id ?? null;
}

/** Exponential backoff with full jitter: attempt 1 → up to base, doubling, capped. */
export function backoffMs(attempt: number, baseMs = 1000, capMs = 3_600_000, rand: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (rand() * ceiling) / 2);
}

/** Drops jobs done more than a week ago. */
export async function purgeFinishedJobs(db: Queryable): Promise<void> {
  await db.query("DELETE FROM jobs WHERE state = 'done' AND updated_at < now() - interval '7 days'");
}

export type JobHandler = (job: JobRow) => Promise<void>;

export interface JobRunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  concurrency?: number;
  /** How long a claimed job stays ours without renewal (renewed every third of it while it runs); a worker that dies is replaced once this passes. */
  leaseMs?: number;
  pollMs?: number;
  workerId?: string;
  onError?: (err: unknown, job: JobRow | null) => void;
}

/**
 * Claims jobs with FOR UPDATE SKIP LOCKED, so any number of worker processes can share one
 * database without taking the same job. A job whose lease expired (its worker crashed) is claimable again.
 */
export class JobRunner extends ClaimingRunner {
  readonly workerId: string;
  constructor(private readonly opts: JobRunnerOptions) {
    super(opts.pollMs ?? 250, opts.concurrency ?? 4, (err) => opts.onError?.(err, null));
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${newId('job').slice(-6)}`;
  }

  async claim(limit: number): Promise<JobRow[]> {
    const queues = Object.keys(this.opts.handlers);
    return this.opts.db.query<JobRow>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = $1, locked_until = now() + make_interval(secs => $2), updated_at = now()
       WHERE id IN (
         SELECT id FROM jobs
         WHERE queue = ANY($3::text[]) AND run_at <= now()
           AND (state = 'queued' OR (state = 'running' AND locked_until < now()))
         ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id, queue, payload, attempts, max_attempts`,
      [this.workerId, this.leaseMs / 1000, queues, limit],
    );
  }

  private get leaseMs(): number {
    return this.opts.leaseMs ?? 60_000;
  }

  private async renew(job: JobRow): Promise<void> {
    await this.opts.db.query(
      "UPDATE jobs SET locked_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 AND state = 'running'",
      [job.id, this.workerId, this.leaseMs / 1000],
    );
  }

  private async finish(job: JobRow, err: unknown): Promise<void> {
    if (!err) {
      await this.opts.db.query("UPDATE jobs SET state = 'done', locked_until = null, updated_at = now() WHERE id = $1 AND locked_by = $2", [
        job.id,
        this.workerId,
      ]);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    const final = job.attempts >= job.max_attempts;
    await this.opts.db.query(
      `UPDATE jobs SET state = $3, last_error = $4, locked_until = null, run_at = now() + make_interval(secs => $5), updated_at = now()
       WHERE id = $1 AND locked_by = $2`,
      [job.id, this.workerId, final ? 'failed' : 'queued', message.slice(0, 2000), backoffMs(job.attempts) / 1000],
    );
  }

  /** Claims and runs one batch; returns how many jobs ran. */
  async runOnce(): Promise<number> {
    const capacity = this.freeCapacity;
    if (capacity <= 0) return 0;
    const jobs = await this.claim(capacity);
    for (const job of jobs) {
      const handler = this.opts.handlers[job.queue];
      const p = (async () => {
        let error: unknown = null;
        // A live holder renews its lease (a third of it at a time), so a job that runs longer than the lease
        // (a backtest over a million rows) is not claimed again and run a second time alongside itself; a
        // worker that died stops renewing and its job is claimed again once the lease passes.
        const renew = setInterval(() => void this.renew(job).catch((e) => this.opts.onError?.(e, job)), this.leaseMs / 3);
        renew.unref();
        try {
          await handler!(job);
        } catch (err) {
          error = err;
          this.opts.onError?.(err, job);
        } finally {
          clearInterval(renew);
        }
        await this.finish(job, error).catch((e) => this.opts.onError?.(e, job));
      })();
      this.track(p);
    }
    return jobs.length;
  }
}
