import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ERROR_CODES } from '../../src/platform/errors.js';
import { EVENT_CATALOG } from '../../src/platform/event-catalog.js';
import { QUEUES } from '../../src/platform/queues.js';
import { CONFIG_SECTIONS } from '../../src/config.js';
import { EVENTS } from '../../src/modules/index.js';
import { registerEvents } from '../../src/platform/event-catalog.js';

registerEvents(EVENTS);

const docs = readdirSync('docs')
  .map((f) => readFileSync(`docs/${f}`, 'utf8'))
  .join('\n');

test('every error code is documented', () => {
  assert.deepEqual(
    Object.keys(ERROR_CODES).filter((c) => !docs.includes(`\`${c}\``)),
    [],
  );
});

test('every event type is documented in docs/webhooks.md', () => {
  const webhooks = readFileSync('docs/webhooks.md', 'utf8');
  assert.ok(Object.keys(EVENT_CATALOG).length > 10);
  assert.deepEqual(
    Object.keys(EVENT_CATALOG).filter((t) => !webhooks.includes(`\`${t}\``)),
    [],
  );
});

test('every environment variable the configuration reads is in docs/operations.md', () => {
  const ops = readFileSync('docs/operations.md', 'utf8');
  // The configuration's own schema names its variables: nothing read can be left out of this list.
  const names = CONFIG_SECTIONS.flatMap((s) => s.variables());
  assert.ok(names.length > 40, `${names.length} variables found`);
  assert.equal(new Set(names).size, names.length, 'no variable is declared twice');
  assert.deepEqual(names.filter((n) => !ops.includes(`\`${n}\``)).sort(), []);
});

test('only the configuration reads the environment', () => {
  // platform/db.ts falls back to PGUSER/USER for a DATABASE_URL without a user, as libpq does.
  const allowed = new Set(['config.ts', 'platform/db.ts']);
  const readers = readdirSync('src', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !allowed.has(f))
    .filter((f) => /process\.env\b/.test(readFileSync(`src/${f}`, 'utf8')));
  assert.deepEqual(readers, []);
});

test('queues are named in docs/architecture.md where they matter', () => {
  assert.ok(docs.includes(QUEUES.verificationPipeline));
});
