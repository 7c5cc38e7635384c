import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { decodeImage, toGray } from './image-input.js';
import { cornerError, findDocumentOutline, reconcileOutline, type DocumentOutline } from './outline.js';
import { measureScreenMoire, MOIRE_THRESHOLDS } from './moire.js';
import { readDocument } from './read-document.js';
import { MrzOcr } from './mrz-ocr.js';
import { DISTORTIONS, photograph, photographCorners } from '../../../test/fixtures/documents/photograph.js';
import { ocrBAvailable, renderDocument } from '../../../test/fixtures/documents/render.js';
import { screenRecapture } from '../../../test/fixtures/documents/screen.js';
import { ANNA, PETER } from '../../../test/fixtures/documents/specimen-mrz.js';
import { AAMVA_SAMPLE, renderPdf417 } from '../../../test/fixtures/documents/pdf417.js';
import { readPdf417 } from './aamva.js';
import { MISSING_DATA, sharedDataDir } from '../../../test/fixtures/documents/shared-data.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const skip = ocrBAvailable() ? false : 'OCR-B font (Debian fonts-ocr-b) not installed; synthetic documents cannot be rendered';
const NOW = new Date('2026-01-01T00:00:00Z');

async function outlineOf(image: Buffer): Promise<{ o: DocumentOutline | null; scale: number; width: number; height: number }> {
  const img = await decodeImage(image);
  return {
    o: findDocumentOutline({ data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height }),
    scale: img.scale,
    width: img.width,
    height: img.height,
  };
}

describe('edge-based document outline', { skip }, () => {
  const ocr = new MrzOcr();
  after(() => ocr.terminate());

  for (const [kind, distortion] of [
    ['td3', 'phone_photo'],
    ['td1', 'perspective'],
    ['td3', 'rotated_minus7deg'],
    ['td1', 'blur_strong'],
  ] as const) {
    test(`${kind} ${distortion}: page corners within 1 % of the diagonal of the truth, fully in frame`, async () => {
      const flat = await renderDocument({ kind, person: ANNA });
      const meta = await sharp(flat).metadata();
      const d = DISTORTIONS[distortion] ?? {};
      const { o, scale } = await outlineOf(await photograph(flat, d));
      assert.ok(o, 'outline found');
      assert.equal(o.cut, false);
      const truth = photographCorners(meta.width ?? 0, meta.height ?? 0, d).map((p) => ({ x: p.x * scale, y: p.y * scale }));
      assert.ok(cornerError(o.corners, truth) < 0.01, `corner error ${cornerError(o.corners, truth)}`);
    });
  }

  test('a page cut by the image border is never reported as a full in-frame page', async () => {
    const photo = await photograph(await renderDocument({ kind: 'td1', person: PETER }), DISTORTIONS.phone_photo ?? {});
    const m = await sharp(photo).metadata();
    const cropped = await sharp(photo)
      .extract({ left: Math.round((m.width ?? 0) * 0.2), top: 0, width: Math.round((m.width ?? 0) * 0.8), height: m.height ?? 0 })
      .png()
      .toBuffer();
    const { o } = await outlineOf(cropped);
    assert.ok(o === null || o.cut, 'cut or no outline');
  });

  test('a tight crop (flat render, no background) does not lock onto the printed portrait box', async () => {
    const { o, width, height } = await outlineOf(await renderDocument({ kind: 'td3', person: ANNA }));
    if (o) {
      const xs = o.corners.map((c) => c.x);
      const ys = o.corners.map((c) => c.y);
      assert.ok(
        (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys)) > 0.8 * width * height,
        'if anything, the whole page',
      );
    }
  });

  test('reconcileOutline: edges used when they agree with the MRZ or without an MRZ; the MRZ otherwise', () => {
    const sq = (d: number) => [
      { x: d, y: d },
      { x: 160 + d, y: d },
      { x: 160 + d, y: 100 + d },
      { x: d, y: 100 + d },
    ];
    const edge: DocumentOutline = { corners: sq(2), support: 0.95, cut: false, borderMargin: 0.01 };
    assert.equal(reconcileOutline(sq(0), edge).source, 'edges+mrz');
    assert.equal(reconcileOutline(sq(30), edge).source, 'mrz');
    assert.equal(reconcileOutline(null, edge).source, 'edges');
    assert.deepEqual(reconcileOutline(null, { ...edge, cut: true }), {
      quad: null,
      source: null,
      agreement: null,
      cutAtBorder: true,
      edge: null,
    });
    assert.equal(reconcileOutline(null, { ...edge, cut: true, support: 0.6 }).cutAtBorder, false, 'weak cut outline is not judged');
  });

  test('card front without an MRZ: outline from the edges, glare and framing measured, upright page as portrait', async () => {
    const photo = await photograph(await renderDocument({ kind: 'td1', person: ANNA, mrzLines: [] }), DISTORTIONS.phone_photo ?? {});
    const r = await readDocument(photo, { ocr, now: NOW, compareVisualZone: false, mrzTimeBudgetMs: 1500 });
    assert.equal(r.mrz, null);
    assert.ok(r.reasons.includes('no_machine_readable_zone'));
    assert.equal(r.signals.find((s) => s.name === 'document_outline')?.value, 'edges');
    assert.equal(r.signals.find((s) => s.name === 'document_out_of_frame')?.passed, true);
    assert.equal(typeof r.signals.find((s) => s.name === 'glare_fraction')?.value, 'number');
    assert.ok(r.portrait, 'upright page returned');
    const pm = await sharp(r.portrait).metadata();
    assert.deepEqual([pm.width, pm.height], [856, 540]);
  });

  test('card front without an MRZ under a lamp: glare_detected from the edge outline', async () => {
    const photo = await photograph(await renderDocument({ kind: 'td1', person: ANNA, mrzLines: [] }), DISTORTIONS.glare ?? {});
    const r = await readDocument(photo, { ocr, now: NOW, compareVisualZone: false, mrzTimeBudgetMs: 1500 });
    assert.ok(r.reasons.includes('glare_detected'), r.reasons.join(','));
  });

  test('card front without an MRZ, cut by the frame: document_out_of_frame', async () => {
    const photo = await photograph(await renderDocument({ kind: 'td1', person: ANNA, mrzLines: [] }), DISTORTIONS.phone_photo ?? {});
    const m = await sharp(photo).metadata();
    const cropped = await sharp(photo)
      .extract({ left: 0, top: 0, width: Math.round((m.width ?? 0) * 0.8), height: m.height ?? 0 })
      .png()
      .toBuffer();
    const r = await readDocument(cropped, { ocr, now: NOW, compareVisualZone: false, mrzTimeBudgetMs: 1500 });
    assert.ok(r.reasons.includes('document_out_of_frame'), r.reasons.join(','));
  });

  test('keystoned licence back: the PDF417 the reader misses on the photo is read on the deskewed page', async () => {
    const code = await renderPdf417(AAMVA_SAMPLE, { scale: 2 });
    const m = await sharp(code).metadata();
    const W = Math.round((m.width ?? 0) * 1.1);
    const H = Math.round((W * 54) / 85.6);
    const top = Math.round((H - (m.height ?? 0)) / 2);
    const left = Math.round((W - (m.width ?? 0)) / 2);
    const card = await sharp(code)
      .extend({ top, bottom: H - (m.height ?? 0) - top, left, right: W - (m.width ?? 0) - left, background: '#f4f4f0' })
      .png()
      .toBuffer();
    const photo = await photograph(card, { perspective: 0.15, rotateDeg: 12 });
    const img = await decodeImage(photo);
    assert.deepEqual(await readPdf417(img.rgb, img.width, img.height), [], 'the reader alone fails on this capture');
    const r = await readDocument(photo, { ocr, now: NOW, compareVisualZone: false, mrzTimeBudgetMs: 1500 });
    assert.equal(r.fieldSource, 'barcode');
    assert.equal(r.fields?.documentNumber, 'T64235789');
  });

  test('passport photo with an MRZ: edge outline confirms the MRZ outline (edges+mrz), verdict unchanged', async () => {
    const r = await readDocument(await photograph(await renderDocument({ kind: 'td3', person: ANNA }), DISTORTIONS.phone_photo ?? {}), {
      ocr,
      now: NOW,
      acceptSpecimens: true,
      compareVisualZone: false,
    });
    assert.equal(r.verdict, 'passed', r.reasons.join(','));
    assert.equal(r.signals.find((s) => s.name === 'document_outline')?.value, 'edges+mrz');
  });
});

describe('screen-photo (moiré) hint on documents', { skip }, () => {
  const ocr = new MrzOcr();
  after(() => ocr.terminate());

  async function moireOf(image: Buffer) {
    const img = await decodeImage(image);
    const o = findDocumentOutline({ data: toGray(img.rgb, img.width, img.height), width: img.width, height: img.height });
    return measureScreenMoire(img.rgb, img.width, img.height, reconcileOutline(null, o).quad);
  }

  test('synthetic screen recaptures trip it; the same documents photographed from paper do not', async () => {
    for (const kind of ['td3', 'td1'] as const) {
      const flat = await renderDocument({ kind, person: PETER });
      const screen = await moireOf(await screenRecapture(flat));
      assert.equal(screen.screen, true, `${kind} screen ${JSON.stringify(screen)}`);
      for (const d of ['clean', 'phone_photo', 'jpeg_q40', 'rotated_4deg'] as const) {
        const paper = await moireOf(await photograph(flat, DISTORTIONS[d] ?? {}));
        assert.equal(paper.screen, false, `${kind} ${d} ${JSON.stringify(paper)}`);
        assert.ok((paper.chromaPeakRatio ?? 0) < MOIRE_THRESHOLDS.minChromaPeakRatio / 4, `${kind} ${d} margin`);
      }
    }
  });

  test('a recaptured passport still reads but goes to review with screen_moire', async () => {
    const r = await readDocument(await screenRecapture(await renderDocument({ kind: 'td3', person: ANNA }), { cameraScale: 0.45 }), {
      ocr,
      now: NOW,
      acceptSpecimens: true,
      compareVisualZone: false,
    });
    assert.equal(r.verdict, 'needs_review');
    assert.ok(r.reasons.includes('screen_moire'), r.reasons.join(','));
    assert.equal(r.signals.find((s) => s.name === 'screen_moire')?.passed, false);
  });

  test('real specimen photos do not trip it', { skip: sharedDataDir() ? false : MISSING_DATA }, async () => {
    const dir = sharedDataDir() as string;
    for (const f of [
      'mrz/passporteye_specimen_images/100_pass-ltu.jpg',
      'mrz/passporteye_specimen_images/98_pass-nld.jpg',
      'mrz/passporteye_specimen_images/77_card-cmw.png',
      'documents/onfido_samples/sample_driving_licence.png',
      'mrz/passporteye_utopia_images/passport-td3.jpg',
    ]) {
      const m = await moireOf(readFileSync(join(dir, f)));
      assert.notEqual(m.screen, true, `${f} ${JSON.stringify(m)}`);
    }
  });
});
