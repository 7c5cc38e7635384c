import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Every operation a caller reaches with an API key must run the shared security cases
// (test/helpers/route-security.ts): 401 without or with a bad key, 403 without its scope, 404 across
// tenants and environments; every capture operation (session token) its own (captureSecurityTests). Each routeSecurityTests call names its operationId as a string literal
// (and checks at run time that its route is that operation), so this test can list them without
// running them, and an operation added later without its call fails here.

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

function securedOperations(): { covered: Set<string>; calls: number } {
  const covered = new Set<string>();
  let calls = 0;
  const files = readdirSync('test', { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts'));
  for (const f of files) {
    const text = readFileSync(`test/${f}`, 'utf8');
    calls += [...text.matchAll(/\b(?:route|capture)SecurityTests\(/g)].length;
    for (const m of text.matchAll(/\b(?:route|capture)SecurityTests\(\s*'([A-Za-z]+)'/g)) covered.add(m[1]!);
  }
  return { covered, calls };
}

test('every authenticated operation of the OpenAPI document (API key or capture session token) runs the shared security cases', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    security?: Record<string, string[]>[];
    paths: Record<string, Record<string, { operationId: string; security?: Record<string, string[]>[] }>>;
  };
  const withKey = Object.values(doc.paths)
    .flatMap((ops) => Object.values(ops))
    .filter((op) => (op.security ?? doc.security ?? []).some((s) => 'apiKey' in s || 'sessionToken' in s))
    .map((op) => op.operationId);
  assert.ok(withKey.length > 50, `${withKey.length} operations`);
  for (const capture of ['getCaptureSession', 'submitCapture', 'uploadCaptureMedia']) assert.ok(withKey.includes(capture), capture);
  const { covered, calls } = securedOperations();
  assert.equal(covered.size, calls, 'each routeSecurityTests call names a distinct operationId as a string literal');
  assert.deepEqual(
    withKey.filter((id) => !covered.has(id)),
    [],
    'operations without routeSecurityTests or captureSecurityTests (add a call in their test file)',
  );
  assert.deepEqual(
    [...covered].filter((id) => !withKey.includes(id)),
    [],
    'security test calls naming no authenticated operation',
  );
});
