import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decideMatch } from './match-decision.js';
import { decideAge, AGE_BASE_UNCERTAINTY_YEARS } from './age-decision.js';
import { decideLiveness, DEFAULT_LIVENESS_THRESHOLDS } from './liveness-decision.js';
import { FACE_MATCH_THRESHOLD, FACE_REVIEW_THRESHOLD } from './similarity.js';
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
  test('clean capture passes; moiré or a low anti-spoof score fails', () => {
    assert.equal(decideLiveness([analysis(face())]).verdict, 'passed');
    const moire = face({ texture: { ...face().texture!, moirePeakRatio: DEFAULT_LIVENESS_THRESHOLDS.maxMoire + 50 } });
    assert.equal(decideLiveness([analysis(moire)]).verdict, 'failed');
    assert.equal(decideLiveness([analysis(face({ antispoof: 0.1 }))]).verdict, 'failed');
    assert.equal(decideLiveness([analysis()]).verdict, 'failed');
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
