import { signal, type Signal } from '../signal.js';
import type { ImageMetadata } from './image-input.js';
import type { MoireMeasure } from './moire.js';
import { MOIRE_THRESHOLDS } from './moire.js';
import type { OcrLine } from './mrz-ocr.js';

/**
 * Tamper hints. None of these proves forgery; each sends the check to a reviewer. What they look at:
 * editing software recorded in metadata, screenshot-like captures, a photographed screen (moiré, moire.ts), and MRZ print that is not the single
 * monospaced OCR-B run a genuine document carries (a retyped or pasted character has another size or pitch).
 */

const EDITORS =
  /photoshop|gimp|affinity|pixelmator|paint\.net|lightroom|snapseed|picsart|canva|facetune|krita|corel|illustrator|inkscape|photopea|fotor|luminar|befunky|pixlr/i;

/** Screen sizes (portrait and landscape) of common monitors and phones, for the screenshot hint. */
const SCREEN_SIZES = new Set([
  '1920x1080',
  '2560x1440',
  '3840x2160',
  '1366x768',
  '1440x900',
  '1536x864',
  '1280x720',
  '1600x900',
  '1680x1050',
  '2560x1600',
  '2880x1800',
  '3024x1964',
  '3456x2234',
  '1280x800',
  '750x1334',
  '828x1792',
  '1125x2436',
  '1170x2532',
  '1179x2556',
  '1242x2688',
  '1284x2778',
  '1290x2796',
  '1080x1920',
  '1080x2340',
  '1080x2400',
  '1440x3200',
  '1440x3088',
  '720x1600',
]);

export const TAMPER_THRESHOLDS = {
  /**
   * Largest tolerated deviation of one MRZ glyph's height from the line median, as a share of the median.
   * Genuine OCR-B renders measured <= 0.09, glyphs pasted in another font 0.18-0.25 (docs/documents.md).
   */
  maxHeightDeviation: 0.15,
  /** Boxes further off than this are OCR segmentation errors (two glyphs or two lines merged), not glyphs. */
  segmentationError: 0.5,
  /** Below this glyph height (original pixels) one pixel of quantisation is already ~10 %; not judged. */
  minGlyphHeightPx: 12,
};

export interface TamperResult {
  signals: Signal[];
  editingSoftware: string | null;
  screenshot: boolean;
  mrzPrintInconsistent: boolean | null;
  screenMoire: boolean | null;
}

/** `mrzLines` should be the OCR lines of a fully valid MRZ read (otherwise the boxes are not trustworthy). */
export function assessTamper(
  meta: ImageMetadata,
  mrzLines: OcrLine[] | null,
  glyphHeightPx: number | null,
  moire: MoireMeasure | null = null,
): TamperResult {
  const signals: Signal[] = [];
  const tools = [meta.exif.software, ...meta.xmpTools].filter((t): t is string => typeof t === 'string' && t.length > 0);
  const editor = tools.find((t) => EDITORS.test(t)) ?? null;
  signals.push(
    signal('editing_software', editor ?? tools[0] ?? null, editor === null, {
      detail: 'Software named in EXIF/XMP; image editors count against the document.',
    }),
  );

  const size = `${meta.width}x${meta.height}`;
  const screenSized = SCREEN_SIZES.has(size);
  // Cameras write exposure data; screenshots and screen grabs have none and are usually PNG.
  const noCamera = !meta.exif.hasCameraExposure && !meta.exif.make;
  const screenshot = screenSized && noCamera;
  signals.push(
    signal('screenshot_hint', screenshot, !screenshot, {
      detail: `Image ${size}${screenSized ? ' equals a common screen size' : ''}; camera EXIF ${noCamera ? 'absent' : 'present'}.`,
    }),
  );
  signals.push(signal('camera_exif_present', !noCamera, null, { detail: 'Informational: exposure or make/model tags found.' }));

  const judged = mrzLines !== null && glyphHeightPx !== null && glyphHeightPx >= TAMPER_THRESHOLDS.minGlyphHeightPx;
  const deviation = judged ? mrzGlyphHeightDeviation(mrzLines) : null;
  const inconsistent = deviation === null ? null : deviation > TAMPER_THRESHOLDS.maxHeightDeviation;
  signals.push(
    signal(
      'mrz_glyph_height_deviation',
      deviation === null ? null : Math.round(deviation * 1000) / 1000,
      inconsistent === null ? null : !inconsistent,
      {
        threshold: TAMPER_THRESHOLDS.maxHeightDeviation,
        detail: 'Worst deviation of one MRZ letter or digit from the median glyph height; OCR-B print is uniform, pasted glyphs are not.',
      },
    ),
  );
  const screenMoire = moire?.screen ?? null;
  signals.push(
    signal('screen_moire', moire?.chromaPeakRatio ?? null, screenMoire === null ? null : !screenMoire, {
      threshold: MOIRE_THRESHOLDS.minChromaPeakRatio,
      detail:
        moire && moire.tiles > 0
          ? `Spectral peak ratio of the page's colour (red−green) detail, median of ${moire.tiles} tiles${moire.lumaPeakRatio !== null ? `; luma ${moire.lumaPeakRatio} (threshold ${MOIRE_THRESHOLDS.minLumaPeakRatio})` : ''}. A photographed screen's sub-pixel grid aliases into moiré peaks; print does not.`
          : 'Not measured (page smaller than one 256 px tile).',
    }),
  );
  return { signals, editingSoftware: editor, screenshot, mrzPrintInconsistent: inconsistent, screenMoire };
}

/**
 * Worst relative deviation of a letter or digit box height from its line's median, ignoring boxes so far
 * off that they are segmentation errors. Null when no line has enough glyph boxes to judge.
 */
export function mrzGlyphHeightDeviation(lines: OcrLine[]): number | null {
  let worst = 0;
  let judged = 0;
  for (const line of lines) {
    // '<' is a short chevron by design; compare only full-height glyphs.
    const heights = line.symbols
      .filter((s) => s.text.length === 1 && /[A-Z0-9]/.test(s.text) && s.y1 > s.y0)
      .map((s) => s.y1 - s.y0)
      .sort((a, b) => a - b);
    if (heights.length < 8) continue;
    const median = heights[Math.floor(heights.length / 2)] ?? 0;
    if (median <= 0) continue;
    judged++;
    for (const h of heights) {
      const d = Math.abs(h - median) / median;
      if (d <= TAMPER_THRESHOLDS.segmentationError) worst = Math.max(worst, d);
    }
  }
  return judged === 0 ? null : worst;
}
