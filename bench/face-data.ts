// Loads the labelled face data of ../shared/data for the face benches (never used by the service).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DATA_DIR = fileURLToPath(new URL('../../shared/data/', import.meta.url));
export const DEEPFACE_DIR = `${DATA_DIR}faces/deepface_subset/`;
export const ANTISPOOF_DIR = `${DATA_DIR}faces/antispoof_minivision/`;

export function requireData(): void {
  if (!existsSync(DEEPFACE_DIR)) {
    console.error(`face bench: shared data not found at ${DEEPFACE_DIR}; nothing to measure.`);
    process.exit(2);
  }
}

function readCsv(path: string): Record<string, string>[] {
  const [head, ...rows] = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const cols = head!.split(',');
  return rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [cols[i]!, v])));
}

/** image file → identity, from labels.csv. */
export function deepfaceLabels(): Map<string, string> {
  return new Map(readCsv(`${DEEPFACE_DIR}labels.csv`).map((r) => [r.image!, r.identity!]));
}

export interface LabelledPair {
  a: string;
  b: string;
  same: boolean;
  source: string;
}

/** The upstream pairs (master + pivot), de-duplicated irrespective of order. */
export function deepfacePairs(): LabelledPair[] {
  const seen = new Map<string, LabelledPair>();
  for (const [file, source] of [
    ['pairs_master.csv', 'master'],
    ['pairs_pivot.csv', 'pivot'],
  ] as const) {
    for (const r of readCsv(`${DEEPFACE_DIR}${file}`)) {
      const decision = r.Decision ?? r.decision;
      const [a, b] = [r.file_x!, r.file_y!].sort() as [string, string];
      seen.set(`${a}|${b}`, { a, b, same: decision === 'Yes', source });
    }
  }
  return [...seen.values()];
}

export function deepfaceImage(name: string): Buffer {
  return readFileSync(`${DEEPFACE_DIR}images/${name}`);
}

export function antispoofSamples(): { file: string; label: 'real' | 'fake'; image: Buffer }[] {
  return readCsv(`${ANTISPOOF_DIR}labels.csv`)
    .filter((r) => !r.image!.includes('_result')) // upstream's annotated outputs, not samples
    .map((r) => ({
      file: r.image!,
      label: r.expected_liveness === 'real' ? 'real' : 'fake',
      image: readFileSync(`${ANTISPOOF_DIR}${r.image}`),
    }));
}

/** Photos and scans of identity documents: their portraits stand in for "printed ID photo held to the camera". */
export function documentImages(): { file: string; image: Buffer }[] {
  const dirs = [`${DATA_DIR}mrz/passporteye_specimen_images/`, `${DATA_DIR}mrz/passporteye_utopia_images/`];
  return dirs.filter(existsSync).flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => /\.(jpe?g|png)$/i.test(f))
      .map((f) => ({ file: f, image: readFileSync(`${dir}${f}`) })),
  );
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export const fmt = (v: number, d = 3): string => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');

/**
 * Synthetic embeddings shaped like real ones: the real faces' mean direction plus seeded Gaussian
 * noise sized so unrelated pairs score near the real different-person median (~0.4). `row` writes the
 * next row of a fixed sequence (the same in every run); `restart` begins it again, so the first 10,000
 * rows of a 100,000 build are a 10,000 build.
 */
export function syntheticFaces(real: readonly Float32Array[]): { row(out: Float32Array, offset?: number): void; restart(): void } {
  const dims = real[0]!.length;
  const mean = new Float32Array(dims);
  for (const e of real) for (let i = 0; i < dims; i++) mean[i]! += e[i]! / real.length;
  const noiseScale = (Math.hypot(...mean) * 1.1) / Math.sqrt(dims);
  const SEED = 0x12345678;
  let seed = SEED;
  const uniform = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return (seed + 1) / 4294967297;
  };
  const gauss = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return {
    row(out, offset = 0) {
      for (let i = 0; i < dims; i++) out[offset + i] = mean[i]! + noiseScale * gauss();
    },
    restart() {
      seed = SEED;
    },
  };
}
