import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ERROR_CODES } from '../../src/platform/errors.js';
import { EVENT_CATALOG } from '../../src/platform/event-catalog.js';
import { QUEUES } from '../../src/platform/queues.js';
import '../../src/modules/index.js'; // modules register their event types when they load

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
  const sources = [
    'src/config.ts',
    ...readdirSync('src/modules', { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('settings.ts'))
      .map((f) => `src/modules/${f}`),
  ];
  const names = new Set<string>();
  for (const f of sources)
    for (const m of readFileSync(f, 'utf8').matchAll(/\b(?:int|num|list|bool|url|text|raw)\('([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]!);
  assert.ok(names.size > 10, `${names.size} variables found`);
  assert.deepEqual([...names].filter((n) => !ops.includes(`\`${n}\``)).sort(), []);
});

test('queues are named in docs/architecture.md where they matter', () => {
  assert.ok(docs.includes(QUEUES.verificationPipeline));
});
