import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHALLENGE_ACTIONS,
  DEFAULT_CHALLENGE_THRESHOLDS,
  evaluateChallenge,
  eyeAspectRatio,
  FRAMES_PER_ACTION,
  mouthOpening,
  nosePosition,
} from './challenge.js';
import { applyHomography, planeHomography } from './flatness.js';
import { decideLiveness } from './liveness-decision.js';
import type { DetectedFace, FaceAnalysis } from './types.js';

type P3 = { x: number; y: number; z: number };
/**
 * A face-like 3-D cloud of 468 points (x to the subject's left = image right of an unmirrored camera,
 * y down, z towards the camera) with the mesh indices the challenge reads placed where a face has them.
 */
function head(): P3[] {
  let s = 4242;
  const rnd = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const surface = (x: number, y: number, bump = 0): P3 => ({
    x,
    y,
    z: 60 * Math.sqrt(Math.max(0, 1 - (x / 80) ** 2 - (y / 110) ** 2)) + bump,
  });
  const pts: P3[] = [];
  for (let i = 0; i < 468; i++) pts.push(surface(rnd() * 70, rnd() * 90));
  const set = (i: number, x: number, y: number, bump = 0): void => void (pts[i] = surface(x, y, bump));
  set(1, 0, 10, 30); // nose tip
  set(234, -76, 0); // right outline
  set(454, 76, 0); // left outline
  for (const [side, outer, inner, a, b, c, d] of [
    [-1, 33, 133, 160, 144, 158, 153],
    [1, 263, 362, 387, 373, 385, 380],
  ] as const) {
    set(outer, side * 45, -20);
    set(inner, side * 15, -20);
    set(a, side * 36, -24);
    set(b, side * 36, -16);
    set(c, side * 24, -24);
    set(d, side * 24, -16);
  }
  set(78, -25, 45);
  set(308, 25, 45);
  for (const [top, bottom, x] of [
    [13, 14, 0],
    [82, 87, -10],
    [312, 317, 10],
  ] as const) {
    set(top, x, 44.5);
    set(bottom, x, 45.5);
  }
  return pts;
}

/** Pinhole projection of the head turned by `yaw` (positive: to its left), 600 px from a camera of focal 800. */
function project(pts: P3[], yaw: number): Float32Array {
  const out = new Float32Array(pts.length * 2);
  pts.forEach((p, i) => {
    const x = Math.cos(yaw) * p.x + Math.sin(yaw) * p.z;
    const z = -Math.sin(yaw) * p.x + Math.cos(yaw) * p.z;
    const depth = 600 - z;
    out[2 * i] = 320 + (800 * x) / depth;
    out[2 * i + 1] = 240 + (800 * p.y) / depth;
  });
  return out;
}

const eyesClosed = (pts: P3[]): P3[] => {
  const out = pts.map((p) => ({ ...p }));
  for (const [top, bottom] of [
    [160, 144],
    [158, 153],
    [387, 373],
    [385, 380],
  ] as const) {
    out[top] = { ...out[top]!, y: -19 };
    out[bottom] = { ...out[bottom]!, y: -18 };
  }
  return out;
};

const EMBEDDING = Float32Array.from([1, 0, 0, 0]);
function face(mesh: Float32Array, embedding = EMBEDDING): DetectedFace {
  return {
    box: [200, 100, 240, 300],
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
    sizePx: 240,
    texture: { sharpness: 400, moirePeakRatio: 25, moireTilePx: 256, highFrequencyShare: 0.03, saturation: 0.3, glareShare: 0 },
    mesh,
  };
}
const analysis = (f: DetectedFace): FaceAnalysis => ({
  image: { format: 'jpeg', width: 640, height: 480, scale: 1, exifOrientation: null },
  faces: [f],
  timings: { decodeMs: 0, inferenceMs: 0, textureMs: 0, totalMs: 0 },
});

const H = head();
const neutral = project(H, 0);
/** The head with its lower lip 12 units down: the mouth open. */
const MOUTH_OPEN = H.map((p, i) => ([14, 87, 317].includes(i) ? { ...p, y: p.y + 12 } : p));
/** Frames of a real head performing `actions` (three frames per slot, the action growing over them). */
function performed(actions: string[]): Float32Array[] {
  const frames = [neutral];
  for (const a of actions)
    for (let k = 1; k <= FRAMES_PER_ACTION; k++) {
      const share = k / FRAMES_PER_ACTION;
      if (a === 'turn_left') frames.push(project(H, 0.45 * share));
      else if (a === 'turn_right') frames.push(project(H, -0.45 * share));
      else if (a === 'blink') frames.push(project(k === 2 ? eyesClosed(H) : H, 0));
      else frames.push(project(MOUTH_OPEN, 0));
    }
  return frames;
}
/** A flat print of the neutral frame turned and tilted in front of the camera, frame by frame. */
function flatPrint(count: number): Float32Array[] {
  const tilts = [0, 0.35, 0.2, -0.3, 0.1, -0.35, 0.25, -0.2, 0.3, -0.1];
  return Array.from({ length: count }, (_, i) =>
    i === 0 ? neutral : applyHomography(planeHomography(640, 480, tilts[i]!, 0.05 * (i % 3), 800, 700), neutral),
  );
}

describe('challenge measures', () => {
  test('the nose moves towards the left outline as the head turns to its left; eyes and mouth ratios', () => {
    const n0 = nosePosition(neutral)!;
    assert.ok(Math.abs(n0 - 0.5) < 0.01, `frontal nose at ${n0}`);
    assert.ok(nosePosition(project(H, 0.4))! > n0 + 0.15);
    assert.ok(nosePosition(project(H, -0.4))! < n0 - 0.15);
    assert.ok(eyeAspectRatio(project(eyesClosed(H), 0))! < 0.5 * eyeAspectRatio(neutral)!);
    assert.equal(nosePosition(new Float32Array(20)), null, 'a mesh without the 468 points has no measure');
    assert.ok(mouthOpening(neutral)! < 0.05);
  });
});

describe('challenge decision', () => {
  const actions = ['turn_left', 'blink', 'turn_right'] as const;
  const decide = (frames: Float32Array[], asked: readonly string[] = actions, faces?: DetectedFace[]) =>
    decideLiveness((faces ?? frames.map((m) => face(m))).map(analysis), {}, { actions: asked as typeof actions });
  const sig = (d: ReturnType<typeof decide>, name: string) => d.signals.find((s) => s.name === name);

  test('a real head performing the asked sequence passes', () => {
    const d = decide(performed([...actions]));
    assert.equal(d.verdict, 'passed', JSON.stringify(d.signals));
    assert.equal(sig(d, 'challenge_actions_performed')!.value, 3);
    assert.ok((sig(d, 'challenge_depth_residual')!.value as number) > DEFAULT_CHALLENGE_THRESHOLDS.minDepthResidual);
    assert.equal(decide(performed(['open_mouth', 'turn_right', 'blink']), ['open_mouth', 'turn_right', 'blink']).verdict, 'passed');
  });

  test('a flat print turned in front of the camera fails: no depth, no blink', () => {
    const d = decide(flatPrint(10));
    assert.equal(d.verdict, 'failed');
    assert.equal(sig(d, 'challenge_depth_residual')!.passed, false);
    assert.ok((sig(d, 'challenge_actions_performed')!.value as number) < 3);
  });

  test("a recording of another session's sequence fails: the actions are in the wrong slots", () => {
    const d = decide(performed(['turn_right', 'blink', 'turn_left']));
    assert.equal(d.verdict, 'failed');
    assert.equal(sig(d, 'challenge_actions_performed')!.value, 1, 'only the blink is where it was asked');
  });

  test('another face mid-challenge, a missing face or a wrong frame count fails', () => {
    const frames = performed([...actions]);
    const faces = frames.map((m, i) => face(m, i === 5 ? Float32Array.from([0, 1, 0, 0]) : EMBEDDING));
    const swapped = decide(frames, actions, faces);
    assert.equal(swapped.verdict, 'failed');
    assert.equal(sig(swapped, 'challenge_same_person')!.passed, false);
    assert.equal(decide(frames.slice(0, 7)).verdict, 'failed');
    assert.equal(sig(decide(frames.slice(0, 7)), 'challenge_frames')!.passed, false);
    const ev = evaluateChallenge(actions, [face(frames[0]!), ...frames.slice(1).map(() => null)], DEFAULT_CHALLENGE_THRESHOLDS);
    assert.deepEqual(
      ev.slots.map((s) => s.performed),
      [false, false, false],
    );
  });

  test('a universal recording (every action in every slot) passes no sequence; a fixed one only its own', () => {
    // An injected video of a real head that turns left, turns right with a blink and opens its mouth in each slot:
    // without exclusivity every slot shows every action, and the recording passes whatever sequence is asked.
    const slot = [project(H, 0.45), project(eyesClosed(H), -0.45), project(MOUTH_OPEN, 0)];
    const universal = [neutral, ...slot, ...slot, ...slot];
    const sequences: string[][] = [];
    for (const a of CHALLENGE_ACTIONS)
      for (const b of CHALLENGE_ACTIONS) for (const c of CHALLENGE_ACTIONS) if (a !== b && b !== c) sequences.push([a, b, c]);
    assert.equal(sequences.length, 36, 'the sequences the capture draws: no action twice in a row');
    const passed = sequences.filter((q) => decide(universal, q).verdict === 'passed');
    assert.equal(passed.length, 0, `passed: ${passed.map((q) => q.join(',')).join(' | ')}`);
    // A fixed recording of one sequence (turn left, blink, turn right) passes that sequence only: 1 in 36.
    const fixed = performed(['turn_left', 'blink', 'turn_right']);
    assert.deepEqual(
      sequences.filter((q) => decide(fixed, q).verdict === 'passed'),
      [['turn_left', 'blink', 'turn_right']],
    );
  });

  test('a genuine user who blinks at will and is still finishing the last action at a new prompt passes', () => {
    // Slot by slot: the first frame still shows the previous slot's action (the user has not come back yet), and a
    // natural blink falls in a turn slot.
    const seq = ['turn_left', 'open_mouth', 'turn_right'] as const;
    const genuine = [
      neutral,
      project(H, 0.15),
      project(eyesClosed(H), 0.3),
      project(H, 0.45), // turn left, a blink on the way
      project(H, 0.3),
      project(MOUTH_OPEN, 0),
      project(MOUTH_OPEN, 0), // still turned left at the prompt, then the mouth opens
      project(MOUTH_OPEN, 0),
      project(H, -0.3),
      project(H, -0.45), // mouth still open at the prompt, then the turn
    ];
    const d = decide(genuine, seq);
    assert.equal(d.verdict, 'passed', JSON.stringify(d.signals));
  });

  test('a still photo replayed in every frame fails', () => {
    assert.equal(decide(Array.from({ length: 10 }, () => neutral)).verdict, 'failed');
  });
});
