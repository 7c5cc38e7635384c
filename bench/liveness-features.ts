// Dumps the passive liveness signals of every real capture to a JSON file, so the calibration
// (bench/liveness-fused.ts) can be re-run without the face models (issue #19, liveness).
// Sets: ../shared/data/real/liveness (live/attack, MANIFEST section 9) and, as extra bona fide single-face
// photos for the moiré guard, the non-LFW/non-ORL photos of real/faces, every 20th LFW photo and the
// deepface subset (photos of real people, not live captures: never used to fit, only to count moiré failures).
//
// Run: npx tsx bench/liveness-features.ts OUT.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createFaceEngine } from '../src/engines/face/face-engine.js';
import { decideLiveness } from '../src/engines/face/liveness-decision.js';

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const out = process.argv[2];
if (!out || !existsSync(`${DATA}real/liveness/labels.csv`)) {
  console.log('usage: npx tsx bench/liveness-features.ts OUT.json (needs ../shared/data/real)');
  process.exit(out ? 0 : 1);
}
const rows = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(','));

/** One labelled image of the real sets (the rows of the features file, before their measured fields). */
export interface Item {
  set: 'liveness' | 'photos';
  file: string;
  group: string;
  live: boolean;
  attack: string;
  source: string;
}
const items: Item[] = rows(`${DATA}real/liveness/labels.csv`).map(([file, group, label, attack, , source]) => ({
  set: 'liveness',
  file: `real/${file}`,
  group: group!,
  live: label === 'live',
  attack: attack!,
  source: source!,
}));
let lfw = 0;
for (const [file, group, , source] of rows(`${DATA}real/faces/labels.csv`)) {
  if (source === 'att_orl_faces_92x112_gray') continue;
  if (source === 'lfw_pairs_subset_150px' && lfw++ % 20 !== 0) continue;
  items.push({ set: 'photos', file: `real/${file}`, group: group!, live: true, attack: 'none', source: source! });
}
for (const [file, identity] of rows(`${DATA}faces/deepface_subset/labels.csv`))
  items.push({
    set: 'photos',
    file: `faces/deepface_subset/images/${file}`,
    group: identity!,
    live: true,
    attack: 'none',
    source: 'deepface_subset',
  });

const engine = createFaceEngine({ poolSize: 2, taskTimeoutMs: 600_000 });
const results: unknown[] = new Array(items.length);
let next = 0;
const lane = async (): Promise<void> => {
  while (next < items.length) {
    const i = next++;
    const it = items[i]!;
    const path = `${DATA}${it.file}`;
    if (!existsSync(path)) continue;
    const a = await engine.analyze(readFileSync(path));
    const f = a.faces[0];
    const d = decideLiveness([a]);
    results[i] = {
      ...it,
      image: a.image,
      faceCount: a.faces.length,
      face: f
        ? { antispoof: f.antispoof, liveness: f.liveness, texture: f.texture, sizePx: f.sizePx, box: f.box, score: f.score, pose: f.pose }
        : null,
      shipped: { verdict: d.verdict, score: d.score, failed: d.signals.filter((s) => s.passed === false).map((s) => s.name) },
    };
  }
};
const t0 = Date.now();
await Promise.all([lane(), lane()]);
await engine.close();
writeFileSync(out, JSON.stringify(results.filter(Boolean)));
console.log(`${results.filter(Boolean).length} of ${items.length} items in ${((Date.now() - t0) / 1000).toFixed(0)} s -> ${out}`);
