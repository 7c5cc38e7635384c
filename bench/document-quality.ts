/**
 * Quality of the document engine: MRZ reading on the labelled real images of ../shared/data and on
 * rendered specimen documents under each photo distortion. Run: npx tsx bench/document-quality.ts [--quick]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDocument, shutdownDocumentEngine } from '../src/engines/document/read-document.js';
import type { DocumentResult } from '../src/engines/document/types.js';
import { DISTORTIONS, photograph } from '../test/fixtures/documents/photograph.js';
import { renderDocument, type DocumentKind } from '../test/fixtures/documents/render.js';
import { buildTd1Mrz, buildTd3Mrz, tamperMrz, type SpecimenPerson } from '../test/fixtures/documents/specimen-mrz.js';
import { specimenPeople } from '../test/fixtures/documents/specimen-people.js';
import { sharedDataDir } from '../test/fixtures/documents/shared-data.js';

const quick = process.argv.includes('--quick');
const NOW = new Date('2026-01-01T00:00:00Z');
const FIELDS = ['documentNumber', 'surname', 'givenNames', 'nationality', 'issuingState', 'birthDate', 'expiryDate', 'sex'] as const;
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}% (${a}/${b})`);

async function realImages(dataDir: string): Promise<void> {
  console.log('\n## Real images (../shared/data/mrz, documents/onfido_samples)');
  const dir = join(dataDir, 'mrz/passporteye_specimen_images');
  const groups: Record<string, { n: number; valid: number; found: number }> = {};
  const verdicts: Record<string, number> = {};
  const reasonCounts: Record<string, number> = {};
  for (const f of readdirSync(dir).sort()) {
    const group = f.startsWith('100_') ? 'prefix 100 (PassportEye read fully)' : 'prefix <100';
    const g = (groups[group] ??= { n: 0, valid: 0, found: 0 });
    g.n++;
    try {
      const r = await readDocument(readFileSync(join(dir, f)), { now: NOW, acceptSpecimens: true });
      if (r.mrz) g.found++;
      if (r.mrz?.valid) g.valid++;
      verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
      for (const x of r.reasons) reasonCounts[x] = (reasonCounts[x] ?? 0) + 1;
      console.log(
        `  ${f.padEnd(22)} ${r.mrz?.format ?? '-'} valid=${r.mrz?.valid ?? false} ${r.verdict} [${r.reasons.join(',')}] ${r.timings.total}ms`,
      );
    } catch (e) {
      console.log(`  ${f.padEnd(22)} input refused: ${(e as Error).message}`);
    }
  }
  for (const [k, g] of Object.entries(groups))
    console.log(`  ${k}: MRZ parsed ${pct(g.found, g.n)}, all check digits valid ${pct(g.valid, g.n)}`);
  console.log(`  verdicts (now=2026-01-01, specimens accepted): ${JSON.stringify(verdicts)}`);
  console.log(`  reason counts over ${Object.values(groups).reduce((a, g) => a + g.n, 0)} images: ${JSON.stringify(reasonCounts)}`);

  // Ground truth from PassportEye tests/mrz_test.py.
  const truth: Record<string, Partial<Record<(typeof FIELDS)[number], string>>> = {
    'passport-td3.jpg': {
      documentNumber: 'L898902C3',
      birthDate: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
    },
    'passport-td3.png': {
      documentNumber: 'L898902C3',
      birthDate: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
    },
    'passport-td2.jpg': { documentNumber: 'D23145890' },
    'passport-td2.png': { documentNumber: 'D23145890' },
  };
  let ok = 0;
  let total = 0;
  for (const [f, want] of Object.entries(truth)) {
    const r = await readDocument(readFileSync(join(dataDir, 'mrz/passporteye_utopia_images', f)), { now: NOW, acceptSpecimens: true });
    for (const [k, v] of Object.entries(want)) {
      total++;
      if (r.fields?.[k as (typeof FIELDS)[number]] === v) ok++;
    }
    console.log(`  ${f}: ${r.mrz?.format} valid=${r.mrz?.valid} ${r.verdict} [${r.reasons.join(',')}]`);
  }
  console.log(`  Utopia field accuracy vs PassportEye's expected values: ${pct(ok, total)}`);
  for (const f of ['sample_driving_licence.png', 'sample_photo.png']) {
    const p = join(dataDir, 'documents/onfido_samples', f);
    if (!existsSync(p)) continue;
    const r = await readDocument(readFileSync(p), { now: NOW });
    console.log(
      `  onfido ${f}: ${r.verdict} [${r.reasons.join(',')}] (UK licence front has no MRZ or PDF417: review is the expected outcome)`,
    );
  }
}

interface Case {
  label: string;
  kind: DocumentKind;
  person: SpecimenPerson;
  mrzLines?: string[];
  foreign?: boolean;
  distortion: string;
  expect: DocumentResult['verdict'];
}

async function synthetic(): Promise<void> {
  console.log('\n## Synthetic specimen renders (OCR-B MRZ, fictitious Utopia holders)');
  const people = specimenPeople(quick ? 2 : 5);
  const expectFor: Record<string, DocumentResult['verdict']> = { blur_strong: 'needs_review', glare: 'needs_review' };
  const cases: Case[] = [];
  for (const [i, person] of people.entries()) {
    for (const kind of ['td3', 'td1'] as const) {
      for (const d of Object.keys(DISTORTIONS)) cases.push({ label: d, kind, person, distortion: d, expect: expectFor[d] ?? 'passed' });
      if (i < 3) {
        const lines = kind === 'td3' ? buildTd3Mrz(person) : buildTd1Mrz(person);
        cases.push({ label: 'tampered_mrz_digit', kind, person, mrzLines: tamperMrz(lines), distortion: 'phone_photo', expect: 'failed' });
        cases.push({ label: 'pasted_glyphs', kind, person, foreign: true, distortion: 'phone_photo', expect: 'needs_review' });
        cases.push({
          label: 'expired',
          kind,
          person: { ...person, expiryDate: '2023-05-05' },
          distortion: 'phone_photo',
          expect: 'failed',
        });
      }
    }
  }
  const per: Record<string, { n: number; fieldOk: number; fieldN: number; exact: number; verdictOk: number; ms: number[] }> = {};
  const confusion: Record<string, number> = {};
  // Per-field accuracy over the captures meant to be readable (strong blur and glare over the MRZ are not).
  const perField: Record<string, { ok: number; n: number }> = {};
  for (const c of cases) {
    const img = await photograph(
      await renderDocument({
        kind: c.kind,
        person: c.person,
        ...(c.mrzLines ? { mrzLines: c.mrzLines } : {}),
        ...(c.foreign
          ? {
              foreignGlyphs: [
                { line: 1, column: c.kind === 'td3' ? 15 : 2 },
                { line: 1, column: c.kind === 'td3' ? 16 : 3 },
              ],
            }
          : {}),
      }),
      DISTORTIONS[c.distortion] ?? {},
    );
    const r = await readDocument(img, { now: NOW, acceptSpecimens: true });
    const s = (per[`${c.kind} ${c.label}`] ??= { n: 0, fieldOk: 0, fieldN: 0, exact: 0, verdictOk: 0, ms: [] });
    s.n++;
    s.ms.push(r.timings.total ?? 0);
    let allOk = true;
    for (const k of FIELDS) {
      if (c.label === 'tampered_mrz_digit' && k === 'birthDate') continue; // the MRZ itself was changed
      s.fieldN++;
      const ok = r.fields?.[k] === c.person[k];
      if (c.distortion !== 'blur_strong' && c.distortion !== 'glare') {
        const f = (perField[k] ??= { ok: 0, n: 0 });
        f.n++;
        if (ok) f.ok++;
      }
      if (ok) s.fieldOk++;
      else allOk = false;
    }
    if (allOk) s.exact++;
    if (r.verdict === c.expect) s.verdictOk++;
    confusion[`${c.expect}->${r.verdict}`] = (confusion[`${c.expect}->${r.verdict}`] ?? 0) + 1;
  }
  console.log('| render / distortion | n | field accuracy | all 8 fields exact | verdict as expected | median ms |');
  console.log('|---|---|---|---|---|---|');
  let tf = 0,
    tn = 0,
    te = 0,
    tv = 0,
    tc = 0;
  for (const [k, s] of Object.entries(per)) {
    const med = [...s.ms].sort((a, b) => a - b)[Math.floor(s.ms.length / 2)] ?? 0;
    console.log(`| ${k} | ${s.n} | ${pct(s.fieldOk, s.fieldN)} | ${pct(s.exact, s.n)} | ${pct(s.verdictOk, s.n)} | ${Math.round(med)} |`);
    tf += s.fieldOk;
    tn += s.fieldN;
    te += s.exact;
    tv += s.verdictOk;
    tc += s.n;
  }
  console.log(`| **all** | ${tc} | ${pct(tf, tn)} | ${pct(te, tc)} | ${pct(tv, tc)} | |`);
  console.log(`expected->actual verdicts: ${JSON.stringify(confusion)}`);
  console.log(
    `per-field accuracy excluding blur_strong and glare captures: ${Object.entries(perField)
      .map(([k, v]) => `${k} ${pct(v.ok, v.n)}`)
      .join('; ')}`,
  );
}

const dataDir = sharedDataDir();
if (dataDir) await realImages(dataDir);
else console.log('shared data not found at ../shared/data; real-image section skipped');
await synthetic();
await shutdownDocumentEngine();
