import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstKeys, startServer, runCli, type RunningServer } from '../helpers/spawn-server.js';

const get = (base: string, path: string, key?: string) => fetch(base + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });

test('first start on the embedded database: migrates, mints one sandbox and one production key; a restart keeps data and mints nothing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-embedded-'));
  const running: RunningServer[] = [];
  t.after(async () => {
    for (const s of running) await s.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  {
    const first = await startServer({ DATA_DIR: dir });
    running.push(first);
    const banner = first.output();
    // Not a terminal: the keys go to a 0600 file, never into this (collectable) output.
    assert.doesNotMatch(banner, /sk_(sandbox|live)_[0-9A-Za-z]{40}/);
    assert.match(banner, /initial-keys\.txt \(mode 0600\)/);
    assert.match(banner, /New key: +npm run cli -- keys create --account acct_/);
    assert.equal(statSync(join(dir, 'initial-keys.txt')).mode & 0o777, 0o600);
    const { sandbox, production: live } = firstKeys(dir);
    assert.match(sandbox, /^sk_sandbox_[0-9A-Za-z]{40}$/);
    assert.match(live, /^sk_live_[0-9A-Za-z]{40}$/);
    assert.match(banner, new RegExp(`${first.base}/docs`));
    const created = await fetch(`${first.base}/v1/lists/blocklist/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'email', value: 'a@b.co', reason: 'test' }),
    });
    assert.equal(created.status, 201);

    // While the server holds the embedded database, the CLI goes through its admin socket.
    const listed = runCli(['keys', 'list', '--json'], { DATA_DIR: dir });
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout.trim().split('\n').pop()!);
    assert.equal(keys.length, 2);
    const account = keys[0].account;
    const minted = runCli(['keys', 'create', '--account', account, '--environment', 'production', '--scopes', 'lists:read', '--json'], {
      DATA_DIR: dir,
    });
    assert.equal(minted.code, 0, minted.stderr);
    const k = JSON.parse(minted.stdout.trim().split('\n').pop()!);
    assert.match(k.key, /^sk_live_/);
    assert.deepEqual(k.scopes, ['lists:read']);
    assert.equal(k.environment, 'production');
    assert.equal((await get(first.base, '/v1/lists/blocklist/entries', k.key)).status, 200);
    assert.equal((await get(first.base, '/v1/lists/allowlist/entries', k.key)).status, 200);
    const revoked = runCli(['keys', 'revoke', k.id], { DATA_DIR: dir });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await get(first.base, '/v1/lists/blocklist/entries', k.key)).status, 401, 'revocation through the server is immediate');
    const verify = runCli(['audit', 'verify', '--json'], { DATA_DIR: dir });
    assert.equal(JSON.parse(verify.stdout.trim().split('\n').pop()!).ok, true);

    assert.equal(await first.stop('SIGTERM'), 0, 'graceful shutdown exits 0');

    const second = await startServer({ DATA_DIR: dir });
    running.push(second);
    assert.doesNotMatch(second.output(), /sk_sandbox_[0-9A-Za-z]{40}/);
    assert.match(second.output(), /keys create --account/);
    const page = (await (await get(second.base, '/v1/lists/blocklist/entries', sandbox)).json()) as { data: unknown[] };
    assert.equal(page.data.length, 1, 'data survived the restart');
    await second.stop();

    // With no server running, the CLI opens the embedded database itself.
    const offline = runCli(['accounts', 'list', '--json'], { DATA_DIR: dir });
    assert.equal(offline.code, 0, offline.stderr);
    assert.equal(JSON.parse(offline.stdout.trim().split('\n').pop()!).length, 1);
  }
});

test('a second server on the same DATA_DIR refuses to start instead of corrupting it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-embedded-'));
  const first = await startServer({ DATA_DIR: dir });
  try {
    await assert.rejects(startServer({ DATA_DIR: dir }), /in use by process/);
  } finally {
    await first.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a start that fails on a taken port makes no account, closes the database and frees DATA_DIR; the next start shows the first keys', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verity-embedded-'));
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const taken = (blocker.address() as AddressInfo).port;
  try {
    await assert.rejects(startServer({ DATA_DIR: dir, PORT: String(taken) }), /EADDRINUSE/);
    assert.equal(existsSync(join(dir, 'verity.lock')), false, 'the lock is released');
    assert.equal(existsSync(join(dir, 'initial-keys.txt')), false, 'no keys were made by a start that could not show them');
    const second = await startServer({ DATA_DIR: dir });
    try {
      assert.match(second.output(), /first API keys were written/);
      const keys = firstKeys(dir);
      const res = await get(second.base, '/v1/verifications', keys.sandbox);
      assert.equal(res.status, 200);
    } finally {
      await second.stop();
    }
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad configuration stops the start with one clear message per value', async () => {
  await assert.rejects(startServer({ PORT: 'x', LOG_LEVEL: 'shouty' }), /PORT must be an integer[\s\S]*LOG_LEVEL must be one of/);
});
