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
  }),
  (v) => ({ subjectQueueLimit: v.subjectQueueLimit }),
);
