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

test('one tree: module sections are read with the platform, and their bad values are named with the rest', () => {
  const c = loadConfig({ NODE_ENV: 'test', MASTER_KEY: '11'.repeat(32), FACE_POOL_SIZE: '2', LIST_SYNC_SOURCES: 'un, ofac_sdn' });
  assert.equal(c.checks.face.poolSize, 2);
  assert.deepEqual(c.checks.screening.syncSources, ['un', 'ofac_sdn']);
  assert.equal(c.capture.ratePerMinute, 120);
  assert.equal(c.verifications.imports.allowPrivateNetworks, false);
  assert.equal(c.trustProxy, false);
  try {
    loadConfig({
      MASTER_KEY: '11'.repeat(32),
      TRUST_PROXY: 'maybe',
      FACE_POOL_SIZE: '0',
      LIST_SYNC_SOURCES: 'un,nowhere',
      SMTP_URL: 'smtp://user:hunter2@mail.example',
      TWILIO_AUTH_TOKEN: 'x',
      SMS_PROVIDER: 'pigeon',
      CONTACT_DEFAULT_COUNTRY: 'gb',
    });
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    const text = err.problems.join('\n');
    for (const name of ['TRUST_PROXY', 'FACE_POOL_SIZE', 'LIST_SYNC_SOURCES', 'SMTP_FROM', 'SMS_PROVIDER', 'CONTACT_DEFAULT_COUNTRY'])
      assert.match(text, new RegExp(name));
    assert.match(text, /nowhere/);
    assert.doesNotMatch(text, /hunter2/, 'a URL may carry a password: never echoed');
  }
});

test('a malformed URL is refused by name without echoing it', () => {
  assert.throws(
    () => loadConfig({ MASTER_KEY: '11'.repeat(32), DATABASE_URL: 'mysql://root:s3cret@db' }),
    (e: unknown) =>
      e instanceof ConfigError && /DATABASE_URL must be a URL starting with postgres:\/\//.test(e.message) && !/s3cret/.test(e.message),
  );
});

test('prepared statements are on by default; each connection keeps DATABASE_PREPARED_PER_CONNECTION; off on request', () => {
  const key = { MASTER_KEY: '11'.repeat(32) };
  assert.equal(loadConfig(key).preparedPerConnection, 100);
  assert.equal(loadConfig({ ...key, DATABASE_PREPARED_PER_CONNECTION: '50' }).preparedPerConnection, 50);
  assert.equal(
    loadConfig({ ...key, DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_PREPARED_PER_CONNECTION: '50' }).preparedPerConnection,
    0,
  );
  assert.equal(loadConfig({ ...key, DATABASE_PREPARED_STATEMENTS: 'true' }).preparedPerConnection, 100);
  assert.equal(
    loadConfig({ ...key, DATABASE_PREPARED_STATEMENTS: 'on', DATABASE_PREPARED_PER_CONNECTION: '50' }).preparedPerConnection,
    50,
  );
  assert.throws(
    () => loadConfig({ ...key, DATABASE_PREPARED_STATEMENTS: 'sometimes', DATABASE_PREPARED_PER_CONNECTION: '0' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      err.problems.some((p) => p.startsWith('DATABASE_PREPARED_STATEMENTS')) &&
      err.problems.some((p) => p.startsWith('DATABASE_PREPARED_PER_CONNECTION')),
  );
});

test('DATABASE_PIPELINE_CONNECTIONS: 8 by default, 0 (none) to 64 on request', () => {
  const key = { MASTER_KEY: '11'.repeat(32) };
  assert.equal(loadConfig({ ...key }).pipelineConnections, 8);
  assert.equal(loadConfig({ ...key, DATABASE_PIPELINE_CONNECTIONS: '0' }).pipelineConnections, 0);
  assert.throws(
    () => loadConfig({ ...key, DATABASE_PIPELINE_CONNECTIONS: '65' }),
    (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('DATABASE_PIPELINE_CONNECTIONS')),
  );
});

test('DATABASE_POOL_SIZE: 20 connections by default, 1–1000 on request', () => {
  const key = { MASTER_KEY: '11'.repeat(32) };
  assert.equal(loadConfig({ ...key }).poolSize, 20);
  assert.equal(loadConfig({ ...key, DATABASE_POOL_SIZE: '40' }).poolSize, 40);
  assert.throws(
    () => loadConfig({ ...key, DATABASE_POOL_SIZE: '0' }),
    (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('DATABASE_POOL_SIZE')),
  );
});
