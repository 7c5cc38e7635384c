/**
 * Edge-based document outline (src/engines/document/outline.ts) against ground truth and against the
 * MRZ-derived outline. Run: npx tsx bench/document-outline.ts
 *
 * - Rendered captures (test/fixtures/documents): the true page corners are known from the photograph
 *   geometry; corner error = largest corner distance / page diagonal. Also cut-off captures (a page edge
 *   outside the photo) that should be reported as `cut`.
 * - Real images (../shared/data mrz/passporteye_specimen_images, documents/onfido_samples): no ground truth;
 *   the edge outline is compared with the outline the MRZ geometry predicts (itself ±3 mm).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage, toGray } from '../src/engines/document/image-input.js';
import { documentQuad } from '../src/engines/document/layout.js';
import { MrzOcr } from '../src/engines/document/mrz-ocr.js';
import { cornerError, findDocumentOutline } from '../src/engines/document/outline.js';
import { readMrz } from '../src/engines/document/read-mrz.js';
import { measureScreenMoire } from '../src/engines/document/moire.js';
import { reconcileOutline } from '../src/engines/document/outline.js';
import { screenRecapture, type ScreenOptions } from '../test/fixtures/documents/screen.js';
import { DISTORTIONS, photograph, photographCorners } from '../test/fixtures/documents/photograph.js';
import { renderDocument } from '../test/fixtures/documents/render.js';
import { specimenPeople } from '../test/fixtures/documents/specimen-people.js';
import { sharedDataDir } from '../test/fixtures/documents/shared-data.js';

const pctile = (v: number[], q: number): number => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(q * v.length))] ?? NaN;
const f2 = (v: number): string => (100 * v).toFixed(2);

async function renders(): Promise<void> {
  console.log('\n## Rendered captures (5 holders × TD3/TD1 × distortions): corner error vs truth, % of page diagonal');
  const errors: Record<string, number[]> = {};
  let found = 0,
    total = 0,
    falseCut = 0;
  const ms: number[] = [];
  for (const person of specimenPeople(5)) {
    for (const kind of ['td3', 'td1'] as const) {
      const flat = await renderDocument({ kind, person });
      const fm = await sharp(flat).metadata();
      for (const [name, d] of Object.entries(DISTORTIONS)) {
        const img = await decodeImage(await photograph(flat, d));
        const gray = { data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height };
        const truth = photographCorners(fm.width ?? 0, fm.height ?? 0, d).map((p) => ({ x: p.x * img.scale, y: p.y * img.scale }));
        const t = performance.now();
        const o = findDocumentOutline(gray);
        ms.push(performance.now() - t);
        total++;
        if (!o) continue;
        found++;
        if (o.cut) falseCut++;
        (errors[`${kind} ${name}`] ??= []).push(cornerError(o.corners, truth));
      }
    }
  }
  console.log('| capture | n found | median error % | max error % |');
  console.log('|---|---|---|---|');
  const all: number[] = [];
  for (const [k, v] of Object.entries(errors)) {
    all.push(...v);
    console.log(`| ${k} | ${v.length} | ${f2(pctile(v, 0.5))} | ${f2(Math.max(...v))} |`);
  }
  console.log(
    `outline found ${found}/${total}; wrongly marked cut ${falseCut}; all: median ${f2(pctile(all, 0.5))} %, p95 ${f2(pctile(all, 0.95))} %, max ${f2(Math.max(...all))} %`,
  );
  console.log(`time per image (working copy ≤ 2400 px): median ${pctile(ms, 0.5).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`);

  // Cut-off captures: the phone photo cropped so that one page edge lies outside the image.
  let cutOk = 0,
    cutN = 0;
  for (const person of specimenPeople(5)) {
    for (const kind of ['td3', 'td1'] as const) {
      const photo = await photograph(await renderDocument({ kind, person }), DISTORTIONS.phone_photo ?? {});
      const m = await sharp(photo).metadata();
      const W = m.width ?? 0,
        H = m.height ?? 0;
      for (const crop of [
        { left: Math.round(W * 0.2), top: 0, width: Math.round(W * 0.8), height: H },
        { left: 0, top: 0, width: W, height: Math.round(H * 0.8) },
      ]) {
        const img = await decodeImage(await sharp(photo).extract(crop).png().toBuffer());
        const o = findDocumentOutline({ data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height });
        cutN++;
        if (o === null || o.cut) cutOk++;
      }
    }
  }
  console.log(
    `cut-off captures (left 20 % or bottom 20 % cropped away): reported cut or no outline ${cutOk}/${cutN} (never a full in-frame page)`,
  );
}

async function real(dataDir: string): Promise<void> {
  console.log('\n## Real images: edge outline vs MRZ-derived outline (corner error % of diagonal)');
  const ocr = new MrzOcr();
  const rows: string[] = [];
  const errs: number[] = [];
  let noEdge = 0,
    noMrz = 0,
    n = 0;
  const files = [
    ...readdirSync(join(dataDir, 'mrz/passporteye_specimen_images'))
      .sort()
      .map((f) => join('mrz/passporteye_specimen_images', f)),
    ...readdirSync(join(dataDir, 'mrz/passporteye_utopia_images'))
      .sort()
      .map((f) => join('mrz/passporteye_utopia_images', f)),
    'documents/onfido_samples/sample_driving_licence.png',
  ];
  for (const f of files) {
    let img;
    try {
      img = await decodeImage(readFileSync(join(dataDir, f)));
    } catch {
      continue;
    }
    n++;
    const gray = { data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height };
    const o = findDocumentOutline(gray);
    const search = await readMrz(gray, ocr, { now: new Date('2026-01-01') });
    const best = search.best?.parsed ? search.best : null;
    const quad = best?.parsed ? documentQuad(best.band, best.flipped, best.parsed.format) : null;
    if (!o) noEdge++;
    if (!quad) noMrz++;
    const e = o && quad ? cornerError(o.corners, quad) : null;
    if (e !== null) errs.push(e);
    rows.push(
      `| ${f.split('/').pop()} | ${img.metadata.width}×${img.metadata.height} | ${o ? `${o.cut ? 'cut' : 'full'} (support ${o.support})` : '—'} | ${quad ? 'yes' : '—'} | ${e === null ? '—' : f2(e)} |`,
    );
  }
  await ocr.terminate();
  console.log('| image | size | edge outline | MRZ outline | corner difference % |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const within = (t: number): number => errs.filter((e) => e <= t).length;
  console.log(
    `images ${n}; no edge outline ${noEdge}; no MRZ outline ${noMrz}; both ${errs.length}: median difference ${f2(pctile(errs, 0.5))} %, ≤ 5 %: ${within(0.05)}, ≤ 10 %: ${within(0.1)}, > 10 %: ${errs.length - within(0.1)}`,
  );
}

async function moireOf(image: Buffer): Promise<ReturnType<typeof measureScreenMoire>> {
  const img = await decodeImage(image);
  const o = findDocumentOutline({ data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height });
  return measureScreenMoire(img.rgb, img.width, img.height, reconcileOutline(null, o).quad);
}

async function moire(dataDir: string | null): Promise<void> {
  console.log('\n## Screen moiré: synthetic screen recaptures vs paper captures vs real photos (median tile peak ratios)');
  const variants: Record<string, ScreenOptions> = {
    default: {},
    rotated_5deg: { rotateDeg: 5 },
    camera_0_45: { cameraScale: 0.45 },
    camera_0_30: { cameraScale: 0.3 },
    blur_1: { blurSigma: 1 },
    jpeg_q60: { jpegQuality: 60 },
  };
  const stats = {
    screen: { n: 0, hit: 0, minChroma: Infinity, minLuma: Infinity },
    paper: { n: 0, hit: 0, maxChroma: 0, maxLuma: 0 },
    real: { n: 0, hit: 0, maxChroma: 0, maxLuma: 0 },
  };
  for (const person of specimenPeople(5)) {
    for (const kind of ['td3', 'td1'] as const) {
      const flat = await renderDocument({ kind, person });
      for (const v of Object.values(variants)) {
        const m = await moireOf(await screenRecapture(flat, v));
        stats.screen.n++;
        if (m.screen) stats.screen.hit++;
        stats.screen.minChroma = Math.min(stats.screen.minChroma, m.chromaPeakRatio ?? 0);
        stats.screen.minLuma = Math.min(stats.screen.minLuma, m.lumaPeakRatio ?? 0);
      }
      for (const d of Object.values(DISTORTIONS)) {
        const m = await moireOf(await photograph(flat, d));
        stats.paper.n++;
        if (m.screen) stats.paper.hit++;
        stats.paper.maxChroma = Math.max(stats.paper.maxChroma, m.chromaPeakRatio ?? 0);
        stats.paper.maxLuma = Math.max(stats.paper.maxLuma, m.lumaPeakRatio ?? 0);
      }
    }
  }
  if (dataDir) {
    for (const dir of ['mrz/passporteye_specimen_images', 'mrz/passporteye_utopia_images', 'documents/onfido_samples']) {
      for (const f of readdirSync(join(dataDir, dir)).sort()) {
        let m;
        try {
          m = await moireOf(readFileSync(join(dataDir, dir, f)));
        } catch {
          continue;
        }
        if (m.tiles === 0) continue;
        stats.real.n++;
        if (m.screen) stats.real.hit++;
        if ((m.chromaPeakRatio ?? 0) > stats.real.maxChroma)
          console.log(`  real max so far: ${f} chroma ${m.chromaPeakRatio} luma ${m.lumaPeakRatio}`);
        stats.real.maxChroma = Math.max(stats.real.maxChroma, m.chromaPeakRatio ?? 0);
        stats.real.maxLuma = Math.max(stats.real.maxLuma, m.lumaPeakRatio ?? 0);
      }
    }
  }
  console.log(
    `synthetic screen recaptures flagged ${stats.screen.hit}/${stats.screen.n} (min chroma ${stats.screen.minChroma}, min luma ${stats.screen.minLuma})`,
  );
  console.log(
    `paper captures (renders × 9 distortions) flagged ${stats.paper.hit}/${stats.paper.n} (max chroma ${stats.paper.maxChroma}, max luma ${stats.paper.maxLuma})`,
  );
  console.log(
    `real photos with ≥ 1 tile flagged ${stats.real.hit}/${stats.real.n} (max chroma ${stats.real.maxChroma}, max luma ${stats.real.maxLuma})`,
  );
}

await renders();
const dataDir = sharedDataDir();
await moire(dataDir);
if (dataDir) await real(dataDir);
else console.log('shared data not found; real-image section skipped');
