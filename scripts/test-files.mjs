// Which test files the suite has, and which of them depend on the test database.
//
// A test file depends on the test database when it, or a file it imports (statically or with a
// literal dynamic import, following relative paths), reads the TEST_DATABASE_URL variable:
// createTestDb in test/helpers/test-db.ts and the few tests that open their own pools. The rest
// (engines, parsers, providers against local peers, servers on their own embedded DATA_DIR) run the
// same whatever it says, so the PostgreSQL pass need not run them a second time. A file that only
// names the variable (in a comment or a message) does not read it.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every *.test.ts under src/ and test/, relative to root, sorted. */
export function testFiles(root = process.cwd()) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.ts')) out.push(relative(root, p));
    }
  };
  for (const d of ['src', 'test']) walk(join(root, d));
  return out.sort();
}

const READS_VARIABLE = /\bprocess\.env(?:\.TEST_DATABASE_URL\b|\[\s*['"]TEST_DATABASE_URL['"]\s*\])/;

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** The relative modules a TypeScript file (its text) imports for their values (type-only imports left out). */
function importsOf(file, text) {
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = resolve(dirname(file), m[1] ?? m[2]);
    const candidates = [spec.replace(/\.js$/, '.ts'), spec.replace(/\.js$/, '.mts'), spec, join(spec, 'index.ts')];
    const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    if (found) out.push(found);
  }
  return out;
}

/** The test files (relative to root) that read TEST_DATABASE_URL, directly or through what they import. */
export function databaseTestFiles(root = process.cwd(), files = testFiles(root)) {
  // The import graph from the test files, then "reaches the variable" spread backwards to a fixed point
  // (import cycles included).
  const graph = new Map();
  const pending = files.map((f) => resolve(root, f));
  while (pending.length > 0) {
    const file = pending.pop();
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const imports = importsOf(file, text);
    graph.set(file, { imports, hit: READS_VARIABLE.test(text) });
    pending.push(...imports);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const node of graph.values())
      if (!node.hit && node.imports.some((i) => graph.get(i).hit)) {
        node.hit = true;
        changed = true;
      }
  }
  return files.filter((f) => graph.get(resolve(root, f)).hit);
}
