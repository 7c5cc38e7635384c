// npm run bench [-- NAME…]: runs the named benchmarks (default: platform). Each is bench/NAME.ts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Arguments starting with -- are options passed to every named benchmark (`sessions --creation-only`).
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const named = args.filter((a) => !a.startsWith('--'));
const names = named.length ? named : ['platform'];
let failed = 0;
for (const name of names) {
  const file = `bench/${name}.ts`;
  if (!existsSync(file)) {
    console.error(`no benchmark ${file}`);
    failed++;
    continue;
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...flags], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
