import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { databaseTestFiles, testFiles } from '../../scripts/test-files.mjs';

// The PostgreSQL pass of the suite runs only the files that read TEST_DATABASE_URL (scripts/run-tests.mjs);
// a file wrongly left out would never meet PostgreSQL, so the rule is tested.

// The fixtures' reads of the variable are put together, so that this file itself reads nothing.
const READ = ['process', 'env', 'TEST_DATABASE_URL'].join('.');

test('a test file depends on the test database through any chain of value imports, cycles and dynamic imports included', () => {
  const root = mkdtempSync(join(tmpdir(), 'verity-test-files-'));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  try {
    put('test/helpers/db.ts', `export const url = ${READ};\n`);
    put('test/helpers/app.ts', "import { url } from './db.js';\nexport const app = url;\n");
    put('test/helpers/a.ts', "import { b } from './b.js';\nexport const a = 1;\n");
    put('test/helpers/b.ts', "import { a } from './a.js';\nimport { app } from './app.js';\nexport const b = a;\n");
    put(
      'test/helpers/pure.ts',
      "import type { url } from './db.js';\n// Not run on TEST_DATABASE_URL: only named here.\nexport const pure = 1;\n",
    );
    put('src/engines/x.test.ts', "import { pure } from '../../test/helpers/pure.js';\n");
    put('src/modules/y.test.ts', "import { a } from '../../test/helpers/a.js';\n");
    put('test/http/z.test.ts', "const { app } = await import('../helpers/app.js');\n");
    put('test/http/w.test.ts', `if (${READ}) {}\n`);
    put('test/process/v.test.ts', "export * from '../helpers/db.js';\n");
    assert.deepEqual(testFiles(root), [
      'src/engines/x.test.ts',
      'src/modules/y.test.ts',
      'test/http/w.test.ts',
      'test/http/z.test.ts',
      'test/process/v.test.ts',
    ]);
    assert.deepEqual(databaseTestFiles(root), [
      'src/modules/y.test.ts',
      'test/http/w.test.ts',
      'test/http/z.test.ts',
      'test/process/v.test.ts',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('in this repository: HTTP, store and console tests run on both databases; engines and embedded-only servers on the embedded pass', () => {
  const db = new Set(databaseTestFiles());
  for (const f of [
    'test/http/console-auth.test.ts',
    'src/modules/console/service.test.ts',
    'src/platform/db-pooler.test.ts',
    'test/browser/console-cases.test.ts',
    'test/browser/hosted-capture.test.ts',
  ])
    assert.ok(db.has(f), `${f} uses the test database`);
  for (const f of [
    'src/engines/rules/decimal.test.ts',
    'src/engines/document/read-mrz.test.ts',
    'test/process/embedded-server.test.ts',
    'test/lint/test-files.test.ts',
  ])
    assert.ok(!db.has(f), `${f} does not use the test database`);
});
