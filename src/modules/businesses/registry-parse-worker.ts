import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { serveWorkerTasks } from '../../platform/worker-pool.js';
import { newStats, registryFormats, type ParseStats, type RegistryRecord } from '../../providers/registries/index.js';
import { entityTokens } from './name-tokens.js';

/**
 * Worker entry that reads one registry file (item 4 of the KYB follow-ups): hashing, decompressing, parsing
 * (CSV, JSON, BODS schema validation) and the name words of every entity cost seconds to minutes of CPU for a
 * golden-copy file, which on the main thread would stall every request while an import sent over the API or
 * the admin socket runs. `registry-import.ts` starts one per import and ends it after; it asks for the next
 * chunk while it writes the current one, so reading and writing overlap and at most two chunks are in memory.
 */
export type RegistryParseTask = { op: 'open'; path: string; format: string } | { op: 'next'; size: number };

export type RegistryParseResult =
  { sha: string } | { records: RegistryRecord[]; tokens: Record<string, string[]>; stats: ParseStats; done: boolean };

let reader: { it: AsyncIterator<RegistryRecord>; stats: ParseStats } | null = null;

async function sha256(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

serveWorkerTasks<RegistryParseTask, RegistryParseResult>(async (task) => {
  if (task.op === 'open') {
    const format = registryFormats[task.format];
    if (!format) throw new Error(`unknown registry format "${task.format}"`);
    const sha = await sha256(task.path);
    const stats = newStats();
    reader = { it: format.parse(task.path, stats)[Symbol.asyncIterator](), stats };
    return { result: { sha } };
  }
  if (!reader) throw new Error('no registry file is open');
  const records: RegistryRecord[] = [];
  const tokens: Record<string, string[]> = {};
  let done = false;
  while (records.length < task.size) {
    const next = await reader.it.next();
    if (next.done) {
      done = true;
      break;
    }
    records.push(next.value);
    if (next.value.kind === 'entity') tokens[next.value.ref] = entityTokens(next.value);
  }
  return { result: { records, tokens, stats: structuredClone(reader.stats), done } };
});
