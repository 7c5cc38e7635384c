import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, ConfigError } from './config.js';

test('every bad value is reported at once, by name', () => {
  try {
    loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', REDIS_URL: '::', MASTER_KEY: 'short' });
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    const text = err.message;
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'REDIS_URL', 'MASTER_KEY']) assert.match(text, new RegExp(name));
  }
});

test('production requires MASTER_KEY', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /MASTER_KEY is required/);
  const c = loadConfig({ NODE_ENV: 'production', MASTER_KEY: 'ab'.repeat(32) });
  assert.equal(c.masterKey.length, 32);
  assert.equal(c.webhooks.requireHttps, true);
  assert.equal(c.webhooks.allowPrivateNetworks, false);
});

test('the embedded default generates its master key once and reuses it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-cfg-'));
  const a = loadConfig({ DATA_DIR: dir });
  const b = loadConfig({ DATA_DIR: dir });
  assert.deepEqual(a.masterKey, b.masterKey);
  assert.equal(readFileSync(join(dir, 'master.key'), 'utf8').trim(), a.masterKey.toString('hex'));
  assert.equal(a.publicBaseUrl, 'http://127.0.0.1:3000');
  assert.equal(a.hostedBaseUrl, 'http://127.0.0.1:3000/hosted');
});
