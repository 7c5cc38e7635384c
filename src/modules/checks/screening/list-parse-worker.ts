import { serveWorkerTasks } from '../../../platform/worker-pool.js';
import { listFormat } from '../../../providers/lists/formats.js';
import { readListInput } from '../../../providers/lists/list-files.js';
import type { ListInput } from '../../../providers/lists/list-source.js';
import { prepareSnapshot, type PreparedSnapshot } from '../../../engines/screening/snapshot-diff.js';

/**
 * Worker entry that parses one list file (issue 4): reading, parsing, deduplicating and hashing an
 * official list costs seconds of CPU, which on the main thread would stall every request of an API process while the
 * `lists.sync` job runs. `list-sync.ts` starts one of these per import or sync and ends it after.
 * Parser errors travel back as data (name and message), so callers see the same messages as before.
 */
export type ListParseTask = { format: string; path: string } | { format: string; input: ListInput };

/** Deduplicated, hashed and serialised here: strings cross the thread boundary cheaply and go straight into the database. */
export type ListParseResult = PreparedSnapshot;

serveWorkerTasks<ListParseTask, ListParseResult>(async (task) => {
  const input = 'path' in task ? readListInput(task.path) : task.input;
  const entities = listFormat(task.format).parse(input);
  return { result: prepareSnapshot(entities) };
});
