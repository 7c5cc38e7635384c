import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createResources, defineResource, ResourcesClosedError } from './resources.js';
import { testConfig } from '../../test/helpers/test-app.js';

const config = testConfig();

test('a resource starts on first use, once, and is closed once, the last started first', async () => {
  const log: string[] = [];
  const make = (name: string) =>
    defineResource(
      name,
      () => {
        log.push(`start ${name}`);
        return { name };
      },
      (v) => {
        log.push(`close ${v.name}`);
      },
    );
  const a = make('a');
  const b = make('b');
  const r = createResources(config, null as never);
  assert.equal(r.started(a), false);
  assert.deepEqual(log, [], 'nothing starts before it is asked for');
  const first = r.get(a);
  assert.equal(r.get(a), first, 'the same instance every time');
  r.get(b);
  assert.deepEqual(log, ['start a', 'start b']);
  await Promise.all([r.close(), r.close()]);
  assert.deepEqual(log, ['start a', 'start b', 'close b', 'close a']);
  assert.throws(() => r.get(a), ResourcesClosedError);
});

test('a resource may use another: it reads the configuration and gets what it needs from the same object', async () => {
  const inner = defineResource(
    'inner',
    () => ({ closed: false }),
    (v) => void (v.closed = true),
  );
  const outer = defineResource(
    'outer',
    (r) => ({ inner: r.get(inner), port: r.config.port }),
    () => undefined,
  );
  const r = createResources(config, null as never);
  const o = r.get(outer);
  assert.equal(o.port, config.port);
  assert.equal(r.get(inner), o.inner);
  await r.close();
  assert.equal(o.inner.closed, true);
});

test('a failing close does not keep the others open; close reports it', async () => {
  const closed: string[] = [];
  const bad = defineResource(
    'bad',
    () => 1,
    () => Promise.reject(new Error('boom')),
  );
  const good = defineResource(
    'good',
    () => 2,
    () => void closed.push('good'),
  );
  const r = createResources(config, null as never);
  r.get(good);
  r.get(bad);
  await assert.rejects(r.close(), AggregateError);
  assert.deepEqual(closed, ['good']);
});
