#!/usr/bin/env node
// `npm start` builds only when the sources changed: a hash of every file the build reads (src/, the
// tsconfigs, package.json and the lockfile) is kept in dist/.build-hash, and tsc runs when it differs
// or dist/ is missing. A fresh clone builds once (~10 s); later starts go straight to node.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const STAMP = 'dist/.build-hash';

function files(p, out) {
  if (!existsSync(p)) return out;
  if (statSync(p).isDirectory()) {
    for (const n of readdirSync(p).sort()) if (!n.startsWith('.')) files(join(p, n), out);
  } else out.push(p);
  return out;
}

const hash = createHash('sha256');
for (const f of INPUTS.flatMap((i) => files(i, []))) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
const digest = hash.digest('hex');

if (existsSync(STAMP) && existsSync('dist/server.js') && readFileSync(STAMP, 'utf8').trim() === digest) {
  console.error('build: dist/ is up to date with the sources');
  process.exit(0);
}
console.error('build: compiling TypeScript (sources changed since the last build)');
const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(STAMP, `${digest}\n`);
