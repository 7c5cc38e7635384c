import { section, vars, Var } from '../../platform/config-schema.js';

/** The transactions module's settings (its door for the configuration loader; imports nothing heavy). */
export const transactionsConfig = section(
  vars({
    /**
     * A subject's evaluations run one at a time; at most this many of one subject may be in progress (from
     * each request's start: reading, waiting or evaluated) in one API process. The next is refused with 429
     * rate_limited and Retry-After (the client retries with backoff) instead of queueing without bound: memory,
     * and a wait longer than any client's timeout.
     */
    subjectQueueLimit: Var.int('TRANSACTIONS_SUBJECT_QUEUE_LIMIT', 100, 1, 100_000),
    /**
     * Group commit of evaluations' write steps (WriteBatcher): at most this many transactions of distinct subjects
     * are written in one database transaction with one COMMIT when they arrive faster than they commit; under
     * light load each goes alone. 1: every evaluation in a database transaction of its own.
     */
    writeBatchMax: Var.int('TRANSACTIONS_WRITE_BATCH_MAX', 32, 1, 1_000),
    /** Write batches in flight at once in one API process (each holds one pool connection while it runs). */
    writeBatches: Var.int('TRANSACTIONS_WRITE_BATCHES', 4, 1, 1_000),
  }),
  (v) => ({ subjectQueueLimit: v.subjectQueueLimit, writeBatchMax: v.writeBatchMax, writeBatches: v.writeBatches }),
);
