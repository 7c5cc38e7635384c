import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumMissing, said, shots, startConsole, type Console } from './console-harness.js';

/**
 * The console's screening-list, business and chart screens in Debian's Chromium against the real
 * server: list snapshots imported by the operator's CLI (two versions and a failed import) shown with
 * the active one marked; a business imported from a BODS register drawn as an ownership graph with its
 * shares (ranges as ranges), UBOs highlighted and a cycle marked; the dashboard's decisions and approval
 * rate and the usage per module and day drawn by uPlot (served from the npm package); each checked
 * against the API.
 */
declare const location: { hash: string };

const skip = chromiumMissing;
if (skip && process.env.CI)
  test('Chromium is installed for the console KYB screens test', () => assert.fail(`${skip}: .ci/run installs it.`));

/** A BODS 0.4 statement, shaped as the registry fixtures are. */
let seq = 0;
const statement = (recordId: string, recordType: string, recordDetails: Record<string, unknown>) => ({
  statementId: `verity-console-graph-statement-${String(++seq).padStart(8, '0')}`,
  statementDate: '2024-03-01',
  publicationDetails: { publicationDate: '2024-03-01', bodsVersion: '0.4', publisher: { name: 'Verity console test' } },
  recordId,
  recordType,
  recordStatus: 'new',
  declarationSubject: 'rook',
  recordDetails,
});
const entity = (id: string, name: string) =>
  statement(id, 'entity', { isComponent: false, entityType: { type: 'registeredEntity' }, name });
const person = (id: string, name: string) =>
  statement(id, 'person', { isComponent: false, personType: 'knownPerson', names: [{ type: 'legal', fullName: name }] });
const owns = (id: string, owner: string, owned: string, share: Record<string, number>) =>
  statement(id, 'relationship', {
    isComponent: false,
    subject: owned,
    interestedParty: owner,
    interests: [{ type: 'shareholding', directOrIndirect: 'direct', beneficialOwnershipOrControl: false, share, startDate: '2020-01-01' }],
  });

/**
 * Rook Trading is owned 40 % by Harrow Holdings, more than 25 up to 50 % by Petra Lind and 10 to 30 %
 * by Zed Small; Kestrel Invest owns all of Harrow, Harrow owns 10 % of Kestrel (a cycle), and Quinn
 * Moss owns all of Kestrel. UBOs above 25 %: Petra (directly) and Quinn (through the chain); Zed possibly.
 */
const ROOK = [
  entity('rook', 'Rook Trading Ltd'),
  entity('harrow', 'Harrow Holdings SA'),
  entity('kestrel', 'Kestrel Invest BV'),
  person('petra', 'Petra Lind'),
  person('quinn', 'Quinn Moss'),
  person('zed', 'Zed Small'),
  owns('r1', 'harrow', 'rook', { exact: 40 }),
  owns('r2', 'petra', 'rook', { exclusiveMinimum: 25, maximum: 50 }),
  owns('r3', 'zed', 'rook', { minimum: 10, maximum: 30 }),
  owns('r4', 'kestrel', 'harrow', { exact: 100 }),
  owns('r5', 'harrow', 'kestrel', { exact: 10 }),
  owns('r6', 'quinn', 'kestrel', { exact: 100 }),
];

describe('console screening-list, business and chart screens in Chromium', { skip }, () => {
  let c: Console;

  before(async () => {
    c = await startConsole('console-kyb');
    c.operator('ada@example.com', 'admin');
    c.operator('val@example.com', 'viewer');
  });
  after(async () => c?.close());

  test('screening lists: the active version of each list is marked; superseded and failed imports are kept', async () => {
    const file = (name: string, body: string) => {
      const p = join(c.dir, name);
      writeFileSync(p, body);
      return p;
    };
    const v1 = file('watch-1.csv', 'id,name\nw1,Ivan Example\n');
    const v2 = file('watch-2.csv', 'id,name\nw1,Ivan Example\nw2,Olga Example\nw3,Boris Example\n');
    const empty = file('watch-3.csv', 'id,name\n');
    for (const [p, ok] of [
      [v1, 0],
      [v2, 0],
      [empty, 1],
    ] as const) {
      const r = c.cli(['lists', 'import', p, '--format', 'custom_csv', '--source', 'our_watchlist']);
      assert.equal(r.status, ok, r.stderr + r.stdout);
    }
    const api = (await c.api('GET', '/v1/checks/screening/list-snapshots?source=our_watchlist')).data.data as any[];
    assert.deepEqual(
      api.map((s) => [s.state, s.entity_count]),
      [
        ['failed', 0],
        ['active', 3],
        ['superseded', 1],
      ],
    );

    const val = await c.open('val@example.com', '#/snapshots');
    await val.page.getByRole('heading', { name: 'Screening lists' }).waitFor();
    const activeRow = val.page.getByRole('row').filter({ hasText: 'our_watchlist' }).first();
    await activeRow.waitFor();
    // The active table: one row per source with the version and count screening uses.
    const current = val.page.getByRole('table', { name: /Active list per source/ });
    const cells = await current.getByRole('row').filter({ hasText: 'our_watchlist' }).getByRole('cell').allInnerTexts();
    assert.equal(cells[1], api[1].version.slice(0, 12));
    assert.equal(cells[2], '3');
    await current.getByRole('row').filter({ hasText: 'sandbox' }).waitFor();
    // The history of the source: newest first, the active one marked, the failure with its error.
    await val.page.getByLabel('Source').selectOption('our_watchlist');
    const history = val.page.getByRole('table', { name: /History of our_watchlist/ });
    await history.waitFor();
    const states = await history.locator('tbody tr td:nth-child(2)').allInnerTexts();
    assert.deepEqual(states, ['failed', 'active (screened)', 'superseded']);
    assert.match(await history.locator('tbody tr').first().innerText(), /holds no list entries/);
    await shots(val.page, 'snapshots');
    assert.deepEqual(val.errors, []);
    await val.close();
  });

  test('business: the ownership graph shows layers, shares (ranges as ranges), the UBOs and the cycle', async () => {
    const path = join(c.dir, 'rook.json');
    writeFileSync(path, JSON.stringify(ROOK));
    const imported = c.cli(['registries', 'import', path, '--format', 'bods']);
    assert.equal(imported.status, 0, imported.stderr + imported.stdout);
    const created = await c.api('POST', '/v1/businesses', { source: 'bods', source_ref: 'rook', screen: false });
    assert.equal(created.status, 201, JSON.stringify(created.data));
    const id = created.data.id as string;
    const ubos = (await c.api('GET', `/v1/businesses/${id}/ubos`)).data;
    const nodeOf = (name: string) => created.data.ownership.nodes.find((n: any) => n.name === name).id as string;
    assert.deepEqual(
      ubos.owners
        .filter((o: any) => o.qualifies)
        .map((o: any) => o.node_id)
        .sort(),
      [nodeOf('Petra Lind'), nodeOf('Quinn Moss')].sort(),
    );
    assert.ok(ubos.cycles.length > 0, JSON.stringify(ubos.cycles));

    const ada = await c.open('ada@example.com', '#/businesses');
    await ada.page.getByRole('heading', { name: 'Businesses' }).waitFor();
    await ada.page.getByLabel('Business id').fill(id);
    await ada.page.getByRole('button', { name: 'Open' }).click();
    await ada.page.getByRole('heading', { name: 'Rook Trading Ltd' }).waitFor();
    const graph = ada.page.locator('#ownership-graph svg');
    await graph.waitFor();
    assert.equal(await graph.getAttribute('role'), 'img');
    // Every party is a box; layers by distance: the business at the bottom, Quinn three layers up.
    assert.equal(await graph.locator('g.node').count(), 6);
    const y = async (name: string) => {
      const t = (await graph.locator(`g.node[data-node="${nodeOf(name)}"]`).getAttribute('transform'))!;
      return Number(/translate\([\d.]+,([\d.]+)\)/.exec(t)![1]);
    };
    const [rook = 0, harrow = 0, petra = 0, kestrel = 0, quinn = 0] = await Promise.all(
      ['Rook Trading Ltd', 'Harrow Holdings SA', 'Petra Lind', 'Kestrel Invest BV', 'Quinn Moss'].map(y),
    );
    assert.ok(rook > harrow && harrow === petra && harrow > kestrel && kestrel > quinn, JSON.stringify({ rook, harrow, kestrel, quinn }));
    // UBOs highlighted, the possible one marked apart, the subject marked.
    const cls = async (name: string) => (await graph.locator(`g.node[data-node="${nodeOf(name)}"]`).getAttribute('class'))!;
    assert.match(await cls('Petra Lind'), /\bubo\b/);
    assert.match(await cls('Quinn Moss'), /\bubo\b/);
    assert.match(await cls('Zed Small'), /\bubo-possible\b/);
    assert.doesNotMatch(await cls('Harrow Holdings SA'), /\bubo\b/);
    assert.match(await cls('Rook Trading Ltd'), /\bsubject\b/);
    // Shares on the arrows, ranges as ranges.
    const edge = (from: string, to: string) => graph.locator(`g.edge[data-from="${nodeOf(from)}"][data-to="${nodeOf(to)}"]`);
    assert.equal(await edge('Petra Lind', 'Rook Trading Ltd').locator('text').textContent(), 'shares > 25 – 50 %');
    assert.equal(await edge('Zed Small', 'Rook Trading Ltd').locator('text').textContent(), 'shares 10 – 30 %');
    assert.equal(await edge('Harrow Holdings SA', 'Rook Trading Ltd').locator('text').textContent(), 'shares 40 %');
    // The cycle: both of its edges and both of its parties marked, and written out below the graph.
    assert.match((await edge('Kestrel Invest BV', 'Harrow Holdings SA').getAttribute('class'))!, /\bcycle\b/);
    assert.match((await edge('Harrow Holdings SA', 'Kestrel Invest BV').getAttribute('class'))!, /\bcycle\b/);
    assert.doesNotMatch((await edge('Harrow Holdings SA', 'Rook Trading Ltd').getAttribute('class'))!, /\bcycle\b/);
    assert.match(await cls('Kestrel Invest BV'), /\bin-cycle\b/);
    assert.match(
      await ada.page.locator('#cycles').innerText(),
      /Cycle: .*Harrow Holdings SA.*Kestrel Invest BV|Cycle: .*Kestrel Invest BV.*Harrow Holdings SA/,
    );
    assert.equal(await ada.page.locator('#ubo-summary').textContent(), '2 above 25 %, 1 possibly');
    await shots(ada.page, 'business');
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });
  test('dashboard and usage: decisions per day, the approval rate and usage per module are charted by uPlot', async () => {
    const asset = await fetch(`${c.server.base}/console/assets/uplot.js`);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type')!, /javascript/);
    assert.match(await asset.text(), /export \{ uPlot as default \}|export default uPlot/);
    for (const reference of ['sandbox_approved', 'sandbox_approved', 'sandbox_declined']) {
      const v = await c.api('POST', '/v1/verifications', { journey: 'kyc_standard', subject: { type: 'individual', reference } });
      assert.equal(v.status, 201, JSON.stringify(v.data));
    }
    let stats: Record<string, any>;
    for (let i = 0; ; i++) {
      stats = (await c.api('GET', '/v1/verifications/decision-stats')).data;
      if (stats.approved + stats.declined >= 3) break;
      assert.ok(i < 240, `the sandbox sessions were not decided in 120 s: ${JSON.stringify(stats)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.deepEqual([stats.approved, stats.declined, stats.approval_rate], [2, 1, 0.6667]);

    const ada = await c.open('ada@example.com', '#/dashboard');
    await ada.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await ada.page.locator('#decision-totals').filter({ hasText: 'Approved 2 · declined 1 · referred 0 · approval rate 66.7 %' }).waitFor();
    // uPlot drew both charts (a canvas each) over the 30 days of the window.
    for (const id of ['decisions-chart', 'approval-chart']) {
      await ada.page.locator(`#${id} canvas`).waitFor();
      assert.equal(await ada.page.locator(`#${id}`).getAttribute('data-points'), '30');
      assert.equal(await ada.page.locator(`#${id} .chart`).getAttribute('aria-hidden'), 'true');
    }
    await shots(ada.page, 'dashboard-charts');

    await ada.page.evaluate(() => (location.hash = '#/usage'));
    await ada.page.getByRole('heading', { name: 'Usage' }).waitFor();
    await ada.page.locator('#usage-chart canvas').waitFor();
    const usage = (await c.api('GET', '/v1/usage')).data;
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(usage.days.at(-1).date, today);
    assert.ok(usage.days.at(-1).modules.verifications >= 3, JSON.stringify(usage.days));
    // One series per module, named in the chart's legend; one point per day of the period so far.
    const legend = await ada.page.locator('#usage-chart .u-legend .u-label').allInnerTexts();
    assert.deepEqual(
      legend.filter((l) => l !== 'Day'),
      usage.modules.map((m: any) => m.module),
    );
    assert.equal(await ada.page.locator('#usage-chart').getAttribute('data-points'), String(Number(today.slice(8, 10))));
    await shots(ada.page, 'usage-chart');
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });
  test('rules: the draft tested against a sample, a backtest with precision and recall, shadow rules and their hits', async () => {
    const rule = async (body: Record<string, unknown>) => {
      const r = await c.api('POST', '/v1/rules', { severity: 'high', ...body });
      assert.equal(r.status, 201, JSON.stringify(r.data));
    };
    await rule({ key: 'lab_big', name: 'Big amount', expression: 'tx.amount > 1000.0', score: 100, status: 'active' });
    await rule({
      key: 'lab_foreign',
      name: 'Foreign counterparty',
      expression: 'counterparty.country != "" && counterparty.country != "DE"',
      score: 50,
      status: 'test',
    });
    // Labelled history: three large transfers (two suspicious), three small ones (one suspicious).
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const history = [
      ['5000.00', true],
      ['5000.00', true],
      ['5000.00', false],
      ['100.00', false],
      ['100.00', false],
      ['100.00', true],
    ].map(([amount, label], i) =>
      JSON.stringify({
        reference: `lab_h${i}`,
        occurred_at: day(i + 1),
        amount,
        currency: 'EUR',
        direction: 'out',
        subject: { reference: `cus_lab${i}` },
        label,
      }),
    );
    const imported = await c.api('POST', '/v1/transactions/imports', { format: 'jsonl', data: history.join('\n') });
    assert.equal(imported.status, 201, JSON.stringify(imported.data));

    // The admin publishes the draft (the API key wrote it); a live transaction then hits the shadow rule.
    const ada = await c.open('ada@example.com', '#/rules');
    await ada.page.getByRole('heading', { name: /Draft · revision/ }).waitFor();
    await ada.page.getByRole('button', { name: /^Publish revision/ }).click();
    await said(ada.page, /Published v\d+/);
    const live = await c.api('POST', '/v1/transactions', {
      reference: 'lab_live_1',
      occurred_at: new Date().toISOString(),
      amount: '50.00',
      currency: 'EUR',
      direction: 'out',
      subject: { reference: 'cus_lab_live' },
      counterparty: { reference: 'cp_fr', country: 'FR' },
    });
    assert.equal(live.status, 201, JSON.stringify(live.data));
    assert.equal(live.data.rules.find((r: any) => r.key === 'lab_foreign').outcome, 'shadow_hit');
    await ada.page.reload();
    await ada.page.getByRole('heading', { name: /Draft · revision/ }).waitFor();
    // Shadow rules are marked in the draft's table, and their hits in recent transactions are counted.
    const draftRow = ada.page.getByRole('table', { name: 'Rules in the draft' }).getByRole('row').filter({ hasText: 'lab_foreign' });
    assert.match(await draftRow.innerText(), /shadow \(test\)/);
    const shadowRow = ada.page.locator('#shadow-hits').getByRole('row').filter({ hasText: 'lab_foreign' });
    await shadowRow.waitFor();
    assert.deepEqual((await shadowRow.getByRole('cell').allInnerTexts()).slice(0, 2), ['lab_foreign', '1']);

    // Test against a sample: the expression in the editor and every rule of the draft.
    const sample = {
      tx: { amount: '5000.00', currency: 'EUR', occurred_at: new Date().toISOString(), direction: 'out' },
      counterparty: { country: 'FR' },
    };
    const ruleId = await ada.page.getByLabel('Rule', { exact: true }).locator('option', { hasText: 'lab_big' }).getAttribute('value');
    await ada.page.getByLabel('Rule', { exact: true }).selectOption(ruleId!);
    await ada.page.getByLabel(/^Sample/).fill(JSON.stringify(sample));
    await ada.page.getByRole('button', { name: 'Test sample' }).click();
    await ada.page.locator('#sample-decision').waitFor();
    const expected = (await c.api('POST', '/v1/rules/validate', { sample, expression: 'tx.amount > 1000.0' })).data.sample_result;
    assert.equal(
      await ada.page.locator('#sample-decision').textContent(),
      `The draft would decide ${expected.status.replace(/_/g, ' ')} (score ${expected.score}).`,
    );
    assert.match((await ada.page.locator('#sample-expression').textContent())!, /: hit$/);
    const outcome = async (key: string) =>
      (await ada.page.locator('#sample-result').getByRole('row').filter({ hasText: key }).getByRole('cell').allInnerTexts()).slice(0, 3);
    assert.deepEqual(await outcome('lab_big'), ['lab_big', 'active', 'hit']);
    assert.deepEqual(await outcome('lab_foreign'), ['lab_foreign', 'shadow (test)', 'shadow hit']);
    // A sample of the wrong shape is refused at its field.
    await ada.page.getByLabel(/^Sample/).fill(JSON.stringify({ tx: { ...sample.tx, amount: 5000 } }));
    await ada.page.getByRole('button', { name: 'Test sample' }).click();
    await ada.page
      .locator('#sample-error')
      .filter({ hasText: /amount/ })
      .waitFor();

    // A backtest of the draft over the labelled history.
    await ada.page.getByRole('button', { name: 'Backtest the draft' }).click();
    await ada.page.locator('#backtest-state').filter({ hasText: 'succeeded' }).waitFor({ timeout: 120_000 });
    const big = await ada.page
      .getByRole('table', { name: 'Hits per rule' })
      .getByRole('row')
      .filter({ hasText: 'lab_big' })
      .getByRole('cell')
      .allInnerTexts();
    const id = /Backtest (bkt_\w+)/.exec((await ada.page.locator('#backtest-state').textContent())!)![1]!;
    const bt = (await c.api('GET', `/v1/rules/backtests/${id}`)).data;
    const apiBig = bt.result.rules.find((r: any) => r.key === 'lab_big');
    // Six labelled transfers and the live one; three large ones hit, two of them suspicious, of three suspicious.
    assert.deepEqual([apiBig.evaluated, apiBig.hits, apiBig.errors], [7, 3, 0]);
    assert.ok(Math.abs(apiBig.precision - 2 / 3) < 1e-3 && Math.abs(apiBig.recall - 2 / 3) < 1e-3, JSON.stringify(apiBig));
    assert.deepEqual(big.slice(0, 7), ['lab_big', 'active', '7', '3', '0', apiBig.precision.toFixed(3), apiBig.recall.toFixed(3)]);
    await shots(ada.page, 'rules-lab');
    assert.deepEqual(ada.errors, []);
    await ada.close();
  });
});
