import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { diffSnapshots, contentHash, entityHash } from './snapshot-diff.js';
import { rescreenDelta, prepareSubject } from './rescreen.js';
import type { ListEntity } from './types.js';
import { sandboxList } from '../../providers/lists/sandbox-list.js';
import { parseOfacCsv } from '../../providers/lists/ofac-csv.js';
import { sharedData, SKIP_NO_DATA } from '../../providers/lists/fixtures/shared-data.js';

describe('diffSnapshots', () => {
  test('added, removed, changed, unchanged', () => {
    const prev = sandboxList();
    const next = sandboxList().filter((e) => e.id !== 'sandbox:pep');
    next[0]!.names.push({ full: 'Sandbox S. Person', quality: 'strong' });
    const added: ListEntity = { ...structuredClone(prev[1]!), id: 'sandbox:new' };
    next.push(added);
    const d = diffSnapshots(prev, next);
    assert.deepEqual(
      d.added.map((e) => e.id),
      ['sandbox:new'],
    );
    assert.deepEqual(
      d.removed.map((e) => e.id),
      ['sandbox:pep'],
    );
    assert.deepEqual(
      d.changed.map((e) => e.id),
      ['sandbox:sanctioned-person'],
    );
    assert.equal(d.unchanged, 3);
  });

  test('hashes ignore property order and snapshot order', () => {
    const e = sandboxList()[0]!;
    const reordered = Object.fromEntries(Object.entries(e).reverse()) as unknown as ListEntity;
    assert.equal(entityHash(e), entityHash(reordered));
    assert.equal(contentHash(sandboxList()), contentHash(sandboxList().reverse()));
  });

  test('OFAC daily update 2024-04-25 → 2024-05-03 and re-screening of the delta only', (t) => {
    const a = sharedData('sanctions', 'ofac_sdn_csv_2024_snapshots', 'sdn_2024-04-25.csv');
    const b = sharedData('sanctions', 'ofac_sdn_csv_2024_snapshots', 'sdn_2024-05-03.csv');
    if (!a || !b) return t.skip(SKIP_NO_DATA);
    const prev = parseOfacCsv({ 'sdn.csv': readFileSync(a) });
    const next = parseOfacCsv({ 'sdn.csv': readFileSync(b) });
    const d = diffSnapshots(prev, next);
    const ids = (xs: ListEntity[]): Set<string> => new Set(xs.map((e) => e.id));
    const prevIds = ids(prev);
    const nextIds = ids(next);
    // Independent count of ent_nums present on one day only.
    const symmetric = [...prevIds].filter((x) => !nextIds.has(x)).length + [...nextIds].filter((x) => !prevIds.has(x)).length;
    assert.equal(d.added.length + d.removed.length, symmetric);
    assert.ok(symmetric >= 250 && symmetric <= 400, `symmetric difference ${symmetric}`);
    const newcomer = d.added[0]!;
    const subjects = [
      { subjectId: 's-new', query: { name: newcomer.names[0]!.full, schema: newcomer.schema } },
      { subjectId: 's-none', query: { name: 'Maria Gonzalez Perez' } },
    ].map(prepareSubject);
    const r = rescreenDelta(subjects, d);
    assert.equal(r.deltaEntities, d.added.length + d.changed.length);
    assert.ok(r.alerts.some((x) => x.subjectId === 's-new' && x.hit.entityId === newcomer.id && x.reason === 'added'));
    assert.equal(
      r.alerts.some((x) => x.subjectId === 's-none'),
      false,
    );
  });
});
