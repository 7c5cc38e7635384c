import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUEUES } from '../platform/queues.js';
import { buildJobHandlers, recurringJobs } from './index.js';
import { loadConfig } from '../config.js';

test('every declared queue has one handler, every handler and every recurring job serves a declared queue', () => {
  const declared = new Set<string>(Object.values(QUEUES));
  assert.equal(declared.size, Object.values(QUEUES).length, 'no queue is declared twice');
  const config = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '11'.repeat(32), LIST_SYNC_SOURCES: 'un' });
  const handled = Object.keys(buildJobHandlers({ db: null as never, config, resources: null as never }));
  assert.deepEqual([...handled].sort(), [...declared].sort());
  for (const r of recurringJobs(config)) assert.ok(declared.has(r.queue), r.queue);
});
