import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decideMatch } from './match-decision.js';
import { decideAge, AGE_BASE_UNCERTAINTY_YEARS } from './age-decision.js';
import { decideLiveness, DEFAULT_LIVENESS_THRESHOLDS } from './liveness-decision.js';
import { FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from './similarity.js';
import { PASSIVE_LIVENESS_MODEL, PASSIVE_MOIRE_NEUTRAL, passiveFeatures, passiveScore } from './passive-score.js';
import type { DetectedFace, FaceAnalysis } from './types.js';

// Hand-built analyses: the decisions are pure functions of what the models reported.
function face(over: Partial<DetectedFace> = {}): DetectedFace {
  const embedding = new Float32Array(4);
  embedding[0] = 1;
  return {
    box: [10, 10, 200, 200],
    score: 0.99,
    detectorScore: 0.9,
    meshScore: 1,
    embedding,
    age: 30,
    gender: 'female',
    genderScore: 0.9,
    antispoof: 0.8,
    liveness: 0.9,
    pose: { yaw: 0, pitch: 0, roll: 0 },
    sizePx: 200,
    texture: { sharpness: 400, moirePeakRatio: 25, moireTilePx: 256, highFrequencyShare: 0.03, saturation: 0.3, glareShare: 0 },
    mesh: Float32Array.from({ length: 20 }, (_, i) => i * 10 + (i % 3)),
    ...over,
  };
}
const analysis = (...faces: DetectedFace[]): FaceAnalysis => ({
  image: { format: 'jpeg', width: 640, height: 480, scale: 1, exifOrientation: null },
  faces,
  timings: { decodeMs: 0, inferenceMs: 0, textureMs: 0, totalMs: 0 },
});
/** Unit vector at cosine `c` from [1,0,0,0]. */
const at = (c: number): Float32Array => Float32Array.from([c, Math.sqrt(1 - c * c), 0, 0]);

describe('match decision', () => {
  test('verdict bands follow the calibrated thresholds', () => {
    const ref = analysis(face());
    assert.equal(decideMatch(analysis(face({ embedding: at(FACE_MATCH_THRESHOLD + 0.01) })), ref).verdict, 'passed');
    assert.equal(decideMatch(analysis(face({ embedding: at(FACE_REVIEW_THRESHOLD + 0.01) })), ref).verdict, 'needs_review');
    assert.equal(decideMatch(analysis(face({ embedding: at(FACE_REVIEW_THRESHOLD - 0.05) })), ref).verdict, 'failed');
  });

  test('a second face in the selfie sends a pass to review; on a document it does not', () => {
    const two = analysis(face(), face({ sizePx: 80 }));
    assert.equal(decideMatch(two, analysis(face())).verdict, 'needs_review');
    assert.equal(decideMatch(analysis(face()), two, { referenceIsDocument: true }).verdict, 'passed');
  });
});

describe('age decision', () => {
  test('passes only when the whole band clears the minimum age', () => {
    const adult = analysis(face({ age: 40 }));
    assert.equal(decideAge(adult, adult, 18).verdict, 'passed');
    assert.equal(decideAge(adult, adult, 40).verdict, 'needs_review');
    assert.equal(decideAge(adult, adult, 40 + AGE_BASE_UNCERTAINTY_YEARS + 1).verdict, 'failed');
    const r = decideAge(analysis(face({ age: 20 })), analysis(face({ age: 26 })), 18);
    assert.equal(r.age, 23);
    assert.equal(r.low, 23 - AGE_BASE_UNCERTAINTY_YEARS - 6);
    assert.equal(decideAge(analysis(), analysis(), 18).verdict, 'failed');
  });
});

describe('liveness decision', () => {
  test('clean capture passes; strong moiré or a low anti-spoof score fails; moderate moiré goes to review', () => {
    assert.equal(decideLiveness([analysis(face())]).verdict, 'passed');
    const withMoire = (peak: number, tile = 256): DetectedFace =>
      face({ texture: { ...face().texture!, moirePeakRatio: peak, moireTilePx: tile } });
    const strong = decideLiveness([analysis(withMoire(DEFAULT_LIVENESS_THRESHOLDS.strongMoire + 50))]);
    assert.equal(strong.verdict, 'failed');
    assert.equal(strong.signals.find((s) => s.name === 'screen_moire_strong')!.passed, false);
    assert.notEqual(decideLiveness([analysis(withMoire(DEFAULT_LIVENESS_THRESHOLDS.maxMoire + 20))]).verdict, 'passed');
    assert.equal(decideLiveness([analysis(face({ antispoof: 0.1 }))]).verdict, 'failed');
    assert.equal(decideLiveness([analysis()]).verdict, 'failed');
  });

  test('moiré scale guard: a strong peak on a face square under 128 px is insufficient evidence (review), not a fail', () => {
    const small = face({ sizePx: 100, box: [0, 0, 100, 100], texture: { ...face().texture!, moirePeakRatio: 500, moireTilePx: 64 } });
    const d = decideLiveness([analysis(small)]);
    assert.equal(d.verdict, 'needs_review');
    const guard = d.signals.find((s) => s.name === 'screen_moire_strong')!;
    assert.equal(guard.passed, null);
    assert.match(guard.detail ?? '', /insufficient evidence/);
    assert.equal(d.signals.find((s) => s.name === 'screen_moire_peak_ratio')!.passed, null);
    // The same peak measured on a 128-px tile is evidence: the capture fails.
    const large = { ...small, texture: { ...small.texture!, moireTilePx: 128 } };
    assert.equal(decideLiveness([analysis(large)]).verdict, 'failed');
    // And it does not weigh in the passive score either: the score equals that of a neutral peak.
    const neutral = { ...small, texture: { ...small.texture!, moirePeakRatio: PASSIVE_MOIRE_NEUTRAL } };
    assert.equal(passiveScore(passiveFeatures(small, analysis().image)), passiveScore(passiveFeatures(neutral, analysis().image)));
  });

  test('fused passive score: a soft reprint with live-looking model scores fails; sharpness is read at the face’s own scale', () => {
    const reprint = face({ sizePx: 300, box: [10, 10, 300, 300], texture: { ...face().texture!, sharpness: 15, moirePeakRatio: 40 } });
    const d = decideLiveness([analysis(reprint)]);
    assert.equal(d.verdict, 'failed');
    assert.equal(d.signals.find((s) => s.name === 'passive_liveness_score')!.passed, false);
    assert.ok(d.score < PASSIVE_LIVENESS_MODEL.failBelow);
    // The same low score on a face under 256 px (upsampled for the measures) is insufficient evidence: review.
    const smallReprint = decideLiveness([analysis({ ...reprint, sizePx: 200, box: [10, 10, 200, 200] })]);
    assert.equal(smallReprint.verdict, 'needs_review');
    assert.equal(smallReprint.signals.find((s) => s.name === 'passive_liveness_score')!.passed, null);
    // Raw sharpness 60 on a 128-px face (upsampled to 256 for the measure) is more detail than 60 on a 256-px face.
    const texture = { ...face().texture!, sharpness: 60, moirePeakRatio: 20, moireTilePx: 128 };
    const small = face({ sizePx: 128, box: [16, 16, 128, 128], texture });
    const large = face({ sizePx: 256, box: [16, 16, 256, 256], texture });
    const image = { format: 'jpeg', width: 160, height: 160, scale: 1, exifOrientation: null };
    const frame = (f: DetectedFace): FaceAnalysis => ({ ...analysis(f), image });
    assert.equal(decideLiveness([frame(small)]).verdict, 'passed');
    assert.equal(decideLiveness([{ ...frame(large), image: { ...image, width: 640, height: 480 } }]).verdict, 'needs_review');
    // The score is the logistic of the stored coefficients (0.5 = the calibrated pass point).
    const z = PASSIVE_LIVENESS_MODEL.intercept + PASSIVE_LIVENESS_MODEL.sharpness * 4 + PASSIVE_LIVENESS_MODEL.moire * 3;
    assert.ok(Math.abs(passiveScore({ sharpness: 4, moire: 3, moireMeasured: true }) - 1 / (1 + Math.exp(-z))) < 1e-12);
    assert.ok(
      passiveScore({ sharpness: 5, moire: 3, moireMeasured: true }) > passiveScore({ sharpness: 4, moire: 3, moireMeasured: true }),
    );
    assert.ok(
      passiveScore({ sharpness: 4, moire: 4, moireMeasured: true }) < passiveScore({ sharpness: 4, moire: 3, moireMeasured: true }),
    );
  });

  test('a burst needs motion and one person', () => {
    const moved = (dx: number, embedding?: Float32Array): DetectedFace =>
      face({ mesh: face().mesh.map((v, i) => v + (i % 2 === 0 ? dx : 0) + (i === 7 ? dx / 3 : 0)), ...(embedding ? { embedding } : {}) });
    assert.equal(decideLiveness([analysis(moved(0)), analysis(moved(4)), analysis(moved(9))]).verdict, 'passed');
    const swapped = decideLiveness([analysis(moved(0)), analysis(moved(5, at(0.1)))]);
    assert.ok(swapped.signals.some((s) => s.name === 'frames_same_person' && s.passed === false));
    assert.equal(swapped.verdict, 'failed');
  });

  test('a burst reports how far its landmarks are from one plane; a moved face with a moving point is not flat', () => {
    const flat = face({ mesh: face().mesh.map((v, i) => v * 1.1 + (i % 2 === 0 ? 7 : -3)) });
    const residual = (frames: DetectedFace[]): number =>
      decideLiveness(frames.map((f) => analysis(f))).signals.find((s) => s.name === 'frame_planar_residual')!.value as number;
    assert.ok(residual([face(), flat]) < 1e-4, 'a scaled and shifted mesh is one homography away');
    const bent = face({ mesh: face().mesh.map((v, i) => v * 1.1 + (i === 9 ? 30 : 0)) });
    assert.ok(residual([face(), bent]) > 0.01, 'one point moving on its own is not');
    const signal = decideLiveness([analysis(face()), analysis(flat)]).signals.find((s) => s.name === 'frame_planar_residual')!;
    assert.equal(signal.passed, null, 'informational until a head-turn challenge exists');
  });
});
