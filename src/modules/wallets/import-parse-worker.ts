import { serveWorkerTasks } from '../../platform/worker-pool.js';
import { parseAttributionLines, parseTransferLines, type ParsedImport } from './import-parse.js';
import type { NewAttribution, NewTransfer } from './repository.js';

/**
 * Worker entry that parses one wallet import (attribution list or known transfers): `imports.ts`
 * starts one per import and ends it after, so the CPU of a large file stays off the event loop.
 */
export type ImportParseTask = { kind: 'attributions' | 'transfers'; content: string };

serveWorkerTasks<ImportParseTask, ParsedImport<NewAttribution | NewTransfer>>(async (task) => ({
  result: task.kind === 'attributions' ? parseAttributionLines(task.content) : parseTransferLines(task.content),
}));
