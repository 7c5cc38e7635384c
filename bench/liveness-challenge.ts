// Active liveness challenge (issue #19 item 6): the physical tests of src/engines/face/challenge.ts on
// real heads and on simulated flat attacks, in ISO/IEC 30107-3 terms.
//
// Genuine: ORL/AT&T faces in ../shared/data/real/faces (20 subjects, 10 images each taken in one sitting
// with the head turned by varying amounts, some with eyes closed). A genuine "turn" is a pair (the
// subject's most frontal image, another image of them turned by at least MIN_POSE_YAW degrees by
// Human's own pose estimate), so the label does not come from the measure under test.
// Attacks: the subject's frontal image warped as a flat print/screen turned and tilted in 3-D (pinhole
// camera), re-encoded and analysed again; and "replays": genuine turns shown in the wrong slot.
// Subjects are split in two halves by a hash: thresholds are chosen on the calibration half and
// reported on the other.
//
// Run: npm run bench -- liveness-challenge
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execSync } from 'node:child_process';
import sharp from 'sharp';
import { createFaceEngine } from '../src/engines/face/face-engine.js';
import { planeHomography, planarFit } from '../src/engines/face/flatness.js';
import { DEFAULT_CHALLENGE_THRESHOLDS, eyeAspectRatio, motionFrom, nosePosition } from '../src/engines/face/challenge.js';
import { cosineSimilarity } from '../src/engines/face/similarity.js';
import type { DetectedFace } from '../src/engines/face/types.js';
import { warpPerspective } from './lib/planar-warp.js';

const REAL = fileURLToPath(new URL('../../shared/data/real/', import.meta.url));
if (!existsSync(`${REAL}faces/labels.csv`)) {
  console.log(`liveness-challenge: SKIPPED, shared data not found at ${REAL}faces (the bench needs ../shared/data/real).`);
  process.exit(0);
}
const MIN_POSE_YAW = 10;
const load = (): string =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/.*load average/, 'load average');
console.log(`liveness-challenge: ${load()}`);

const rows = readFileSync(`${REAL}faces/labels.csv`, 'utf8')
  .trim()
  .split(/\r?\n/)
  .slice(1)
  .map((l) => l.split(','))
  .filter((r) => r[3] === 'att_orl_faces_92x112_gray');
const subjects = new Map<string, string[]>();
for (const r of rows) subjects.set(r[2]!, [...(subjects.get(r[2]!) ?? []), r[0]!]);

function half(group: string): 0 | 1 {
  let h = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) h = Math.imul(h ^ group.charCodeAt(i), 0x01000193);
  return ((h >>> 0) & 1) as 0 | 1;
}
function wilson(k: number, n: number): string {
  if (n === 0) return 'n/a (0)';
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const m = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return `${p.toFixed(3)} [${Math.max(0, c - m).toFixed(3)}, ${Math.min(1, c + m).toFixed(3)}] (${k}/${n})`;
}
const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};
const spread = (xs: number[]): string => [0.05, 0.5, 0.95].map((p) => q(xs, p).toFixed(4)).join(' / ');

const engine = createFaceEngine({ poolSize: 2, taskTimeoutMs: 600_000 });
const started = performance.now();
const faceOf = new Map<string, DetectedFace | null>();
const files = rows.map((r) => r[0]!);
let next = 0;
const lane = async (): Promise<void> => {
  while (next < files.length) {
    const f = files[next++]!;
    faceOf.set(f, (await engine.analyze(readFileSync(`${REAL}${f}`))).faces[0] ?? null);
  }
};
await Promise.all([lane(), lane()]);
console.log(`analysed ${files.length} ORL images in ${((performance.now() - started) / 1000).toFixed(1)} s`);

interface Pair {
  subject: string;
  kind: 'genuine turn' | 'flat attack' | 'genuine, no turn';
  /** Signed nose shift, positive = the head's left. */
  shift: number;
  residual: number;
  similarity: number;
  poseYaw: number;
  /** Mouth opening gain against the frontal frame (share of mouth width; challenge.ts). */
  mouthGain: number | null;
}
const pairs: Pair[] = [];
const ears: { subject: string; file: string; ratio: number }[] = [];
const tilts: [number, number][] = [
  [0.35, 0],
  [-0.35, 0],
  [0.2, 0],
  [-0.2, 0],
  [0.25, 0.2],
  [-0.2, -0.25],
];
for (const [subject, list] of subjects) {
  const faces = list.map((f) => ({ f, face: faceOf.get(f) ?? null })).filter((x) => x.face && nosePosition(x.face.mesh) !== null);
  if (faces.length < 2) continue;
  const frontal = faces.reduce((a, b) => (Math.abs(b.face!.pose.yaw) < Math.abs(a.face!.pose.yaw) ? b : a));
  const n0 = nosePosition(frontal.face!.mesh)!;
  const e0 = eyeAspectRatio(frontal.face!.mesh)!;
  const gain = (f: DetectedFace): number | null => motionFrom(frontal.face!.mesh, f.mesh).mouth;
  for (const { f, face } of faces) {
    if (f === frontal.f) continue;
    const fit = planarFit(frontal.face!.mesh, face!.mesh, Math.max(frontal.face!.sizePx, face!.sizePx));
    const poseYaw = face!.pose.yaw - frontal.face!.pose.yaw;
    pairs.push({
      subject,
      kind: Math.abs(poseYaw) >= MIN_POSE_YAW ? 'genuine turn' : 'genuine, no turn',
      shift: nosePosition(face!.mesh)! - n0,
      residual: fit?.homographyResidual ?? 0,
      similarity: cosineSimilarity(frontal.face!.embedding, face!.embedding),
      poseYaw,
      mouthGain: gain(face!),
    });
    ears.push({ subject, file: f, ratio: eyeAspectRatio(face!.mesh)! / e0 });
  }
  // Flat attacks: the frontal image as a print turned in front of the camera.
  const { data, info } = await sharp(readFileSync(`${REAL}${frontal.f}`))
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (const [yaw, pitch] of tilts) {
    // The print is shown smaller than the frame (margins), as a hand-held photo would be.
    const side = Math.max(info.width, info.height);
    const H = planeHomography(info.width, info.height, yaw, pitch, 1.2 * side, 1.6 * side);
    const warped = await sharp(warpPerspective(data, info.width, info.height, H), {
      raw: { width: info.width, height: info.height, channels: 3 },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const b = (await engine.analyze(warped)).faces[0];
    if (!b || nosePosition(b.mesh) === null) continue;
    const a = frontal.face!;
    const fit = planarFit(a.mesh, b.mesh, Math.max(a.sizePx, b.sizePx));
    pairs.push({
      subject,
      kind: 'flat attack',
      shift: nosePosition(b.mesh)! - n0,
      residual: fit?.homographyResidual ?? 0,
      similarity: cosineSimilarity(a.embedding, b.embedding),
      poseYaw: b.pose.yaw - a.pose.yaw,
      mouthGain: gain(b),
    });
  }
}
await engine.close();

console.log(`\n## Measures per pair (frontal frame against another), all ${subjects.size} subjects`);
for (const kind of ['genuine turn', 'genuine, no turn', 'flat attack'] as const) {
  const of = pairs.filter((p) => p.kind === kind);
  console.log(
    `  ${kind} (${of.length}): |nose shift| p5/p50/p95 ${spread(of.map((p) => Math.abs(p.shift)))}; homography residual ${spread(of.map((p) => p.residual))}; similarity ${spread(of.map((p) => p.similarity))}; |Human yaw Δ| ${spread(of.map((p) => Math.abs(p.poseYaw)))}`,
  );
}
// Exclusivity (challenge.ts): a slot that shows a turn or an open mouth it did not ask for is not performed. ORL's
// subjects were asked to vary pose and expression between images, so this is an upper bound of unasked motion.
const { minTurn: turnAt, minMouthOpening: mouthAt } = DEFAULT_CHALLENGE_THRESHOLDS;
for (const kind of ['genuine turn', 'genuine, no turn'] as const) {
  const of = pairs.filter((p) => p.kind === kind);
  const gains = of.map((p) => p.mouthGain).filter((g): g is number => g !== null);
  console.log(
    `  ${kind}: mouth opening gain p5/p50/p95 ${spread(gains)}; an open mouth (gain ≥ ${mouthAt}) ${gains.filter((g) => g >= mouthAt).length}/${gains.length}` +
      (kind === 'genuine, no turn'
        ? `; a turn (|nose shift| ≥ ${turnAt}) ${of.filter((p) => Math.abs(p.shift) >= turnAt).length}/${of.length}`
        : ''),
  );
}
const genuineTurns = pairs.filter((p) => p.kind === 'genuine turn');
const agree = genuineTurns.filter((p) => Math.sign(p.shift) === Math.sign(p.poseYaw)).length;
console.log(`  direction: nose shift and Human's yaw agree in sign on ${agree}/${genuineTurns.length} genuine turns`);

// Calibration: on half 0, the residual threshold halfway between the attacks' maximum and the genuine
// turns' 5th percentile, and the turn threshold at the genuine turns' 5th percentile of |shift|.
const cal = pairs.filter((p) => half(p.subject) === 0);
const test = pairs.filter((p) => half(p.subject) === 1);
const calGenuine = cal.filter((p) => p.kind === 'genuine turn');
const calAttack = cal.filter((p) => p.kind === 'flat attack');
const attackMax = Math.max(...calAttack.map((p) => p.residual));
const genuineP5 = q(
  calGenuine.map((p) => p.residual),
  0.05,
);
const minDepth = (attackMax + genuineP5) / 2;
// The turn threshold is set, not fitted: the depth test is what separates a plane from a head; the
// nose shift only has to show the asked direction (ORL's turns are small, 10–17°, a challenge asks for more).
const minTurn = DEFAULT_CHALLENGE_THRESHOLDS.minTurn;
console.log(
  `\n## Calibration half (${new Set(cal.map((p) => p.subject)).size} subjects): attack residual max ${attackMax.toFixed(4)}, genuine turn residual p5 ${genuineP5.toFixed(4)} → minDepthResidual ${minDepth.toFixed(4)}; minTurn ${minTurn} (shipped default); shipped minDepthResidual ${DEFAULT_CHALLENGE_THRESHOLDS.minDepthResidual}`,
);
for (const [name, set] of [
  ['calibration half', cal],
  ['test half', test],
] as const) {
  const g = set.filter((p) => p.kind === 'genuine turn');
  const a = set.filter((p) => p.kind === 'flat attack');
  const passes = (p: Pair): boolean => Math.abs(p.shift) >= minTurn && p.residual >= minDepth;
  console.log(`  ${name}: BPCER (genuine turns refused) ${wilson(g.filter((p) => !passes(p)).length, g.length)}`);
  console.log(`  ${name}: APCER (flat prints turned in 3-D accepted as a turn) ${wilson(a.filter(passes).length, a.length)}`);
  console.log(`  ${name}: APCER with the depth test alone ${wilson(a.filter((p) => p.residual >= minDepth).length, a.length)}`);
}
console.log(`\n## Eye aspect ratio against the frontal frame (ORL has some closed-eye images; lowest 12)`);
for (const e of [...ears].sort((a, b) => a.ratio - b.ratio).slice(0, 12)) console.log(`  ${e.ratio.toFixed(3)} ${e.file}`);
console.log(`  all: p5/p50/p95 ${spread(ears.map((e) => e.ratio))}`);
console.log(`liveness-challenge done: ${load()}`);
