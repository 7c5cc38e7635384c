import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error the rule is plain JavaScript (ESLint loads it without a build)
import { violation, moduleOf } from '../../eslint/boundaries.js';

const v = violation as (from: string, to: string) => string | null;

test('module faces: code outside a module reaches it only through index.ts', () => {
  assert.equal(moduleOf('src/modules/checks/face/routes.ts'), 'src/modules/checks');
  assert.equal(moduleOf('src/modules/checks/steps/face.ts'), 'src/modules/checks');
  assert.equal(moduleOf('src/modules/cases/open-case.ts'), 'src/modules/cases');
  assert.match(v('src/modules/verifications/delete.ts', 'src/modules/cases/open-case.ts')!, /through its face/);
  assert.equal(v('src/modules/verifications/delete.ts', 'src/modules/cases/index.ts'), null);
  assert.equal(v('src/modules/cases/routes.ts', 'src/modules/cases/repository.ts'), null);
  assert.match(
    v('src/modules/cases/open-case.ts', 'src/modules/checks/screening/index.ts')!,
    /through its face/,
    'the check family has one door',
  );
  assert.equal(v('src/modules/cases/open-case.ts', 'src/modules/checks/index.ts'), null);
  assert.match(v('src/jobs/index.ts', 'src/modules/monitoring/jobs.ts')!, /through its face/);
  // Tests may reach internals.
  assert.equal(v('test/http/cases.test.ts', 'src/modules/cases/repository.ts'), null);
});

test('layers: engines, providers and platform stay below modules; nothing imports app.ts', () => {
  assert.match(v('src/engines/rules/evaluate.ts', 'src/modules/cases/index.ts')!, /engine never imports a module/);
  assert.match(v('src/engines/rules/evaluate.ts', 'src/providers/lists/ofac-csv.ts')!, /engine never imports a provider/);
  assert.equal(v('src/engines/screening/index.test.ts', 'src/providers/lists/ofac-csv.ts'), null);
  assert.match(v('src/engines/rules/evaluate.ts', 'src/platform/db.ts')!, /platform\/db/);
  assert.match(v('src/providers/registries/gleif.ts', 'src/modules/cases/index.ts')!, /provider never imports a module/);
  assert.match(v('src/platform/audit.ts', 'src/modules/cases/index.ts')!, /platform never imports modules/);
  assert.match(v('src/modules/index.ts', 'src/app.ts')!, /nothing imports app.ts/);
  assert.equal(v('src/server.ts', 'src/app.ts'), null);
});

test("settings: a module's config.ts is its light door, and it and its settings files import nothing heavy", () => {
  assert.equal(v('src/config.ts', 'src/modules/checks/config.ts'), null);
  assert.match(v('src/config.ts', 'src/modules/checks/face/settings.ts')!, /through its face/);
  assert.equal(v('src/modules/checks/config.ts', 'src/modules/checks/face/settings.ts'), null);
  assert.equal(v('src/modules/checks/face/settings.ts', 'src/platform/config-schema.ts'), null);
  assert.match(v('src/modules/checks/face/settings.ts', 'src/platform/db.ts')!, /nothing heavy/);
  assert.match(v('src/modules/capture/config.ts', 'src/modules/capture/routes.ts')!, /nothing heavy/);
  assert.match(v('src/modules/capture/config.ts', 'src/modules/checks/config.ts')!, /nothing heavy/);
});
