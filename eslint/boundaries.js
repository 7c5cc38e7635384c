// The import-boundary rule (docs/architecture.md, "Layers and faces"):
// - engines never import modules, providers or platform/db (a co-located test may use a provider's fixtures);
// - providers never import modules;
// - platform never imports modules, providers or engines;
// - code outside a module imports it only through its index.ts (a module is src/modules/<name>/, or
//   the check family src/modules/checks/ is one module whose door is src/modules/checks/index.ts; tests may
//   reach a module's internals);
// - nothing imports src/app.ts but the entry points (server, tests, benchmarks, scripts);
// - a module's settings have a second, light door, src/modules/<name>/config.ts, which the configuration
//   loader (src/config.ts) imports; it and the settings files it gathers import only
//   platform/config-schema.ts and each other, so loading the configuration never loads a module.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const isTest = (p) => p.endsWith('.test.ts') || p.startsWith('test/') || p.startsWith('bench/');

function rel(p) {
  return relative(ROOT, p).split(sep).join('/');
}

/** The module a source path belongs to, or null when it is not inside src/modules/<name>/. */
export function moduleOf(p) {
  const r = p.split('/');
  if (r[0] !== 'src' || r[1] !== 'modules' || r.length < 4) return null;
  return `src/modules/${r[2]}`;
}

function layerOf(p) {
  const r = p.split('/');
  if (r[0] !== 'src') return 'outside';
  if (['engines', 'providers', 'platform', 'modules'].includes(r[1])) return r[1];
  return 'entry';
}

/** A module's config door (src/modules/<name>/config.ts) or one of the settings files it gathers. */
export function isConfigFile(p) {
  const m = moduleOf(p);
  return m !== null && (p === `${m}/config.ts` || p.endsWith('/settings.ts'));
}

/** Why importing `to` from `from` breaks the boundary, or null when it is allowed. Both repository-relative. */
export function violation(from, to) {
  if (isConfigFile(from) && to !== 'src/platform/config-schema.ts' && !(isConfigFile(to) && moduleOf(to) === moduleOf(from))) {
    return "a module's config.ts and settings files import only platform/config-schema.ts and each other (nothing heavy)";
  }
  const fl = layerOf(from);
  const tl = layerOf(to);
  if (
    to === 'src/app.ts' &&
    !['src/server.ts', 'src/worker.ts', 'src/cli.ts'].includes(from) &&
    !isTest(from) &&
    !from.startsWith('scripts/')
  ) {
    return 'nothing imports app.ts: put shared types in platform/app-types.ts';
  }
  if (fl === 'engines') {
    if (tl === 'modules') return 'an engine never imports a module';
    if (tl === 'providers' && !isTest(from)) return 'an engine never imports a provider';
    if (to === 'src/platform/db.ts') return 'an engine never imports platform/db';
  }
  if (fl === 'providers' && tl === 'modules') return 'a provider never imports a module';
  if (fl === 'platform' && ['modules', 'providers', 'engines'].includes(tl) && !isTest(from)) return `platform never imports ${tl}`;
  if (tl === 'modules' && !isTest(from)) {
    const tm = moduleOf(to);
    if (tm && tm !== moduleOf(from) && to !== `${tm}/index.ts` && to !== `${tm}/config.ts`)
      return `import ${tm} through its face, ${tm}/index.ts (or its settings through ${tm}/config.ts)`;
  }
  return null;
}

function resolveSpec(file, spec) {
  if (!spec.startsWith('.')) return null;
  let p = resolve(dirname(file), spec);
  if (p.endsWith('.js') && existsSync(p.slice(0, -3) + '.ts')) p = p.slice(0, -3) + '.ts';
  return rel(p);
}

const rule = {
  meta: { type: 'problem', docs: { description: 'layer and module-face boundaries' }, schema: [] },
  create(context) {
    const file = rel(context.filename);
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const to = resolveSpec(context.filename, node.source.value);
      if (!to) return;
      const why = violation(file, to);
      if (why) context.report({ node: node.source, message: `${node.source.value}: ${why}` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { imports: rule } };
