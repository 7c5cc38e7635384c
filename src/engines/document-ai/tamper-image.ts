import exifr from 'exifr';
import sharp from 'sharp';
import { signal, type Signal } from '../signal.js';
import { decodeGrey, errorLevels } from './error-level.js';
import { estimateQuality, readQuantTables } from './jpeg-tables.js';

const EDITORS =
  /photoshop|gimp|pixelmator|affinity|paint\.net|canva|snapseed|lightroom|picsart|fotor|photopea|krita|inkscape|illustrator|facetune|polarr/i;

/** Text chunks (tEXt, iTXt) of a PNG: where PNG writers record their Software name. */
function pngText(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 8;
  while (i + 12 <= png.length) {
    const len = png.readUInt32BE(i);
    const type = png.toString('latin1', i + 4, i + 8);
    if (type === 'tEXt' || type === 'iTXt') {
      const data = png.subarray(i + 8, i + 8 + len);
      const nul = data.indexOf(0);
      if (nul > 0) {
        const key = data.toString('latin1', 0, nul);
        const rest =
          type === 'iTXt'
            ? (data
                .subarray(nul + 3)
                .toString('utf8')
                .split('\u0000')
                .pop() ?? '')
            : data.toString('latin1', nul + 1);
        out[key] = rest;
      }
    }
    if (type === 'IEND') break;
    i += 12 + len;
  }
  return out;
}

/**
 * JPEG ghosts (Farid 2009): recompress at each quality below the file's own. Where the image was
 * saved before at quality q1, untouched areas barely change at q1, but content pasted in before the
 * last save was never quantised at q1 and stands out as a compact cluster of outlier blocks.
 */
async function compressionGhost(image: Buffer, fileQuality: number, minBlocks: number) {
  let best: { blocks: number; region: Awaited<ReturnType<typeof errorLevels>>['largestRegion']; atQuality: number; suspicious: boolean } = {
    blocks: 0,
    region: null,
    atQuality: 0,
    suspicious: false,
  };
  const decoded = await decodeGrey(image);
  for (let q = 50; q <= Math.min(95, fileQuality + 2); q += 5) {
    const ela = await errorLevels(image, q, decoded);
    const region = ela.largestRegion;
    if (!region || region.blocks <= best.blocks) continue;
    // Scattered outliers are text edges; a forgery is one compact cluster holding most of them.
    const suspicious = region.blocks >= minBlocks && region.blocks / Math.max(1, ela.outlierBlocks) >= 0.5;
    best = { blocks: region.blocks, region, atQuality: q, suspicious };
  }
  return best;
}

export interface ImageTamperOptions {
  /** Outlier blocks (8×8) that must cluster before a region counts as pasted in. */
  minRegionBlocks?: number;
  /** Larger JPEGs skip the ghost analysis (it recompresses the image ~10 times); default 16 MP. */
  maxGhostPixels?: number;
}

/** Tampering signals of an image: editing software in metadata and inconsistent JPEG compression. */
export async function analyseImageTampering(image: Buffer, mediaType: string, options: ImageTamperOptions = {}): Promise<Signal[]> {
  const signals: Signal[] = [];
  let software: string[] = [];
  if (mediaType === 'image/png') {
    const t = pngText(image);
    software = [t.Software, t.software, t['XML:com.adobe.xmp']?.match(/CreatorTool>([^<]+)</)?.[1]].filter((s): s is string => !!s);
  } else {
    const meta = (await exifr.parse(image, { tiff: true, exif: true, xmp: true, icc: false, iptc: false }).catch(() => null)) as Record<
      string,
      unknown
    > | null;
    software = ['Software', 'CreatorTool', 'HistorySoftwareAgent', 'ProcessingSoftware']
      .map((k) => meta?.[k])
      .flat()
      .filter((v): v is string => typeof v === 'string' && v.length > 0);
    const created = meta?.DateTimeOriginal instanceof Date ? meta.DateTimeOriginal : null;
    const modified = meta?.ModifyDate instanceof Date ? meta.ModifyDate : null;
    if (created && modified) {
      const days = Math.round(((modified.getTime() - created.getTime()) / 86_400_000) * 100) / 100;
      signals.push(signal('image_modified_after_capture_days', days, days <= 1 && days >= -0.01, { threshold: 1 }));
    }
  }
  const edited = software.some((s) => EDITORS.test(s));
  signals.push(
    signal('image_software', software.join(' / ') || null, edited ? false : null, {
      detail: edited ? 'Saved by image-editing software.' : 'No editing software recorded.',
    }),
  );

  if (mediaType === 'image/jpeg') {
    const tables = readQuantTables(image);
    const luma = tables.find((t) => t.id === 0);
    if (luma) {
      const { quality, ijgFit } = estimateQuality(luma.values);
      signals.push(
        signal('jpeg_quality_estimate', quality, null, {
          detail: `Quantisation tables fit the standard IJG family at ${(ijgFit * 100).toFixed(0)}%.`,
        }),
      );
      const meta = await sharp(image)
        .metadata()
        .catch(() => null);
      const pixels = (meta?.width ?? 0) * (meta?.height ?? 0);
      if (pixels > (options.maxGhostPixels ?? 16_000_000)) {
        signals.push(signal('jpeg_compression_inconsistent', null, null, { detail: `Not analysed: ${pixels} pixels exceeds the limit.` }));
        return signals;
      }
      const ghost = await compressionGhost(image, quality, options.minRegionBlocks ?? 12);
      signals.push(
        signal('jpeg_compression_inconsistent', ghost.blocks, !ghost.suspicious, {
          threshold: options.minRegionBlocks ?? 12,
          detail:
            ghost.suspicious && ghost.region
              ? `At quality ${ghost.atQuality} the region x=${ghost.region.x} y=${ghost.region.y} w=${ghost.region.w} h=${ghost.region.h} recompresses unlike the rest: it was not part of the earlier compression.`
              : 'No clustered region recompresses differently from the rest.',
        }),
      );
    }
  }
  return signals;
}
