import { signal, type Signal } from '../signal.js';
import type { ImageMetadata } from './image-input.js';
import type { OcrLine } from './mrz-ocr.js';

/**
 * Tamper hints. None of these proves forgery; each sends the check to a reviewer. What they look at:
 * editing software recorded in metadata, screenshot-like captures, and MRZ print that is not the single
 * monospaced OCR-B run a genuine document carries (a retyped or pasted character has another size or pitch).
 */

const EDITORS = /photoshop|gimp|affinity|pixelmator|paint\.net|lightroom|snapseed|picsart|canva|facetune|krita|corel|illustrator|inkscape|photopea|fotor|luminar|befunky|pixlr/i;

/** Screen sizes (portrait and landscape) of common monitors and phones, for the screenshot hint. */
const SCREEN_SIZES = new Set([
  '1920x1080', '2560x1440', '3840x2160', '1366x768', '1440x900', '1536x864', '1280x720', '1600x900', '1680x1050', '2560x1600', '2880x1800', '3024x1964', '3456x2234', '1280x800',
  '750x1334', '828x1792', '1125x2436', '1170x2532', '1179x2556', '1242x2688', '1284x2778', '1290x2796', '1080x1920', '1080x2340', '1080x2400', '1440x3200', '1440x3088', '720x1600',
]);

export const TAMPER_THRESHOLDS = {
  /** Largest tolerated deviation of one MRZ glyph from the line's regular pitch, as a share of the pitch. */
  maxPitchDeviation: 0.45,
  /** Largest tolerated deviation of one glyph's height from the line median, as a share of the median. */
  maxHeightDeviation: 0.3,
};

export interface TamperResult { signals: Signal[]; editingSoftware: string | null; screenshot: boolean; mrzPrintInconsistent: boolean | null }

export function assessTamper(meta: ImageMetadata, mrzLines: OcrLine[] | null): TamperResult {
  const signals: Signal[] = [];
  const tools = [meta.exif.software, ...meta.xmpTools].filter((t): t is string => typeof t === 'string' && t.length > 0);
  const editor = tools.find((t) => EDITORS.test(t)) ?? null;
  signals.push(signal('editing_software', editor ?? (tools[0] ?? null), editor === null, { detail: 'Software named in EXIF/XMP; image editors count against the document.' }));

  const size = `${meta.width}x${meta.height}`;
  const screenSized = SCREEN_SIZES.has(size);
  // Cameras write exposure data; screenshots and screen grabs have none and are usually PNG.
  const noCamera = !meta.exif.hasCameraExposure && !meta.exif.make;
  const screenshot = screenSized && noCamera;
  signals.push(signal('screenshot_hint', screenshot, !screenshot, { detail: `Image ${size}${screenSized ? ' equals a common screen size' : ''}; camera EXIF ${noCamera ? 'absent' : 'present'}.` }));
  signals.push(signal('camera_exif_present', !noCamera, null, { detail: 'Informational: exposure or make/model tags found.' }));

  const print = mrzLines ? mrzPrintDeviation(mrzLines) : null;
  const inconsistent = print === null ? null : print.pitch > TAMPER_THRESHOLDS.maxPitchDeviation || print.height > TAMPER_THRESHOLDS.maxHeightDeviation;
  signals.push(signal('mrz_print_deviation', print === null ? null : `pitch ${print.pitch.toFixed(2)}, height ${print.height.toFixed(2)}`, inconsistent === null ? null : !inconsistent,
    { threshold: `pitch ${TAMPER_THRESHOLDS.maxPitchDeviation}, height ${TAMPER_THRESHOLDS.maxHeightDeviation}`, detail: 'Worst deviation of one MRZ glyph from the monospaced grid and from the median glyph height.' }));
  return { signals, editingSoftware: editor, screenshot, mrzPrintInconsistent: inconsistent };
}

/**
 * Fits x-centre = a + pitch * index over each OCR line's glyph boxes (OCR-B is monospaced) and reports the
 * worst residual and the worst glyph-height outlier among letters and digits. Null when there are too few
 * glyph boxes to judge.
 */
export function mrzPrintDeviation(lines: OcrLine[]): { pitch: number; height: number } | null {
  let worstPitch = 0;
  let worstHeight = 0;
  let judged = 0;
  for (const line of lines) {
    const glyphs = line.symbols.filter((s) => s.text.length === 1 && s.x1 > s.x0);
    if (glyphs.length < 20) continue;
    const xs = glyphs.map((g) => (g.x0 + g.x1) / 2);
    const fit = robustLine(xs);
    if (!fit || fit.pitch <= 0) continue;
    judged++;
    xs.forEach((x, i) => {
      const k = Math.round((x - fit.a) / fit.pitch);
      worstPitch = Math.max(worstPitch, Math.abs(x - (fit.a + k * fit.pitch)) / fit.pitch);
      void i;
    });
    // '<' is a short chevron by design; compare only full-height glyphs.
    const heights = glyphs.filter((g) => /[A-Z0-9]/.test(g.text)).map((g) => g.y1 - g.y0).sort((a, b) => a - b);
    const median = heights[Math.floor(heights.length / 2)] ?? 0;
    if (median > 0 && heights.length >= 5) {
      for (const h of heights) worstHeight = Math.max(worstHeight, Math.abs(h - median) / median);
    }
  }
  return judged === 0 ? null : { pitch: worstPitch, height: worstHeight };
}

/** Pitch from the median gap between neighbouring glyph centres, offset from the median residual. */
function robustLine(xs: number[]): { a: number; pitch: number } | null {
  const sorted = [...xs].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((x, i) => x - (sorted[i] ?? 0)).filter((g) => g > 0).sort((a, b) => a - b);
  const pitch = gaps[Math.floor(gaps.length / 2)];
  if (!pitch) return null;
  const first = sorted[0] ?? 0;
  const offsets = sorted.map((x) => {
    const k = Math.round((x - first) / pitch);
    return x - k * pitch;
  }).sort((a, b) => a - b);
  return { a: offsets[Math.floor(offsets.length / 2)] ?? first, pitch };
}
