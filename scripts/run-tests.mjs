#!/usr/bin/env node
// Collects every *.test.ts under src/ and test/ and runs them with Node's test runner (through tsx).
// Optional arguments narrow the set to files whose path contains one of them.
//
// With TEST_DATABASE_URL set (the PostgreSQL pass), only the files that depend on the test database
// run: the others (engines, parsers, servers on their own embedded DATA_DIR) do the same whatever it
// says and run on the embedded pass (scripts/test-files.mjs). TEST_ALL_FILES=true runs them too.
import { spawnSync } from 'node:child_process';
import { databaseTestFiles, testFiles } from './test-files.mjs';

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const matched = testFiles().filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (matched.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const allFiles = ['1', 'true', 'yes', 'on'].includes((process.env.TEST_ALL_FILES ?? '').toLowerCase());
let files = matched;
if (process.env.TEST_DATABASE_URL && !allFiles) {
  files = databaseTestFiles(process.cwd(), matched);
  const left = matched.length - files.length;
  if (left > 0)
    console.log(
      `TEST_DATABASE_URL is set: running the ${files.length} test files that use the test database; ` +
        `${left} that do not (engines, parsers, embedded-only servers) run the same on the embedded pass ` +
        `(npm test without TEST_DATABASE_URL) and are skipped here. TEST_ALL_FILES=true runs them too.`,
    );
  if (files.length === 0) process.exit(0);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', '--test-timeout=900000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(r.status ?? 1);
