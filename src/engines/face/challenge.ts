/**
 * Active liveness challenge (issue #19 item 6). The server picks a short random sequence of actions per
 * session (turn left, turn right, blink, open the mouth); the capture records one neutral frame and then
 * FRAMES_PER_ACTION frames while each action is asked, in order. This file holds the physical tests on
 * the face meshes of those frames. Pure functions, no I/O: the meshes come from the face worker.
 *
 * - Direction: the nose tip's position between the two face-outline points, along the outline axis,
 *   changes in the asked direction (anatomical landmarks, so a mirrored preview changes nothing).
 * - Depth: a real head turning leaves landmark motion no homography explains (flatness.ts); a print or
 *   a screen moved in front of the camera is a plane and fits one.
 * - Blink / mouth: eye and mouth aspect ratios against the neutral frame.
 * - Same person: the embedding of every frame against the neutral frame's.
 * - Order: each slot must show its own action; a recording of another session's sequence shows the
 *   actions in the wrong slots.
 * - Exclusivity: a slot must not show a turn or an open mouth it did not ask for (a blink is never held
 *   against a slot: people blink at will). Without it one injected recording that turns both ways and
 *   opens the mouth in every slot would show every action everywhere and pass any sequence. The slot's
 *   first frame may still show the previous slot's action (the person has not come back yet).
 */
import { planarFit } from './flatness.js';
import { cosineSimilarity, FACE_REVIEW_THRESHOLD } from './similarity.js';
import type { DetectedFace } from './types.js';

export const CHALLENGE_ACTIONS = ['turn_left', 'turn_right', 'blink', 'open_mouth'] as const;
export type ChallengeAction = (typeof CHALLENGE_ACTIONS)[number];
/** Frames recorded while one action is asked (the capture takes them spread over about 1.5 s). */
export const FRAMES_PER_ACTION = 3;
/** Actions per challenge: 4 · 3 · 3 = 36 sequences with no action twice in a row (the capture module draws them). */
export const CHALLENGE_LENGTH = 3;
export const challengeFrameCount = (actions: number): number => 1 + actions * FRAMES_PER_ACTION;
export const MAX_CHALLENGE_FRAMES = challengeFrameCount(CHALLENGE_LENGTH);

// MediaPipe face mesh indices (Human's 468-point mesh), anatomical: "right" is the subject's right.
const NOSE_TIP = 1;
const OUTLINE_RIGHT = 234;
const OUTLINE_LEFT = 454;
const RIGHT_EYE = {
  outer: 33,
  inner: 133,
  pairs: [
    [160, 144],
    [158, 153],
  ] as const,
};
const LEFT_EYE = {
  outer: 263,
  inner: 362,
  pairs: [
    [385, 380],
    [387, 373],
  ] as const,
};
const MOUTH = {
  left: 308,
  right: 78,
  pairs: [
    [13, 14],
    [82, 87],
    [312, 317],
  ] as const,
};

export interface ChallengeThresholds {
  /** Change of the nose position between the outlines (share of outline distance) a turn must reach. */
  minTurn: number;
  /** Homography residual (share of face width) a turn must leave: a plane stays at the mesh noise. */
  minDepthResidual: number;
  /** Eye aspect ratio of a blink frame at most this share of the neutral frame's. */
  maxBlinkRatio: number;
  /** Mouth opening (share of mouth width) a frame must gain over the neutral frame. */
  minMouthOpening: number;
  /** Embedding similarity of every frame to the neutral frame. */
  minSamePerson: number;
}

/**
 * Defaults from bench/liveness-challenge.ts (docs/face.md): minDepthResidual halfway between the largest
 * residual of flat prints turned in 3-D and the 5th percentile of real ORL head turns (calibration half);
 * maxBlinkRatio between ORL's closed-eye images (≤ 0.61, 4 images) and open-eye pairs (p5 0.745);
 * minSamePerson is the face match review threshold. minTurn and minMouthOpening judge both an asked action and an
 * unasked one (exclusivity), so they must clear what people show when nobody asks: on 12 live NUAA webcam sessions
 * of people sitting still (frames over about 7 s) the largest nose shift was 0.19 and the largest mouth gain 0.19
 * (bench/liveness-real-quality.ts). At 0.1 / 0.15 four and one of those sessions would have shown an unasked turn or
 * mouth; at 0.2 none. An asked turn of 0.2 is about 18° (synthetic head) and ORL's 10–17° turns measure 0.19–0.32.
 */
export const DEFAULT_CHALLENGE_THRESHOLDS: ChallengeThresholds = {
  minTurn: 0.2,
  minDepthResidual: 0.0172,
  maxBlinkRatio: 0.65,
  minMouthOpening: 0.2,
  minSamePerson: FACE_REVIEW_THRESHOLD,
};

export interface SlotResult {
  action: ChallengeAction;
  /** An action the slot showed but did not ask (a turn or an open mouth), or null: such a slot is not performed. */
  contradicted: ChallengeAction | null;
  /** The measure for the action at its best frame of the slot (turn: nose shift; blink: EAR ratio; mouth: opening gain). */
  measure: number | null;
  /** Homography residual of the best turn frame against the neutral frame (turns only). */
  depthResidual: number | null;
  performed: boolean;
}

export interface ChallengeEvaluation {
  slots: SlotResult[];
  /** Lowest embedding similarity of any frame to the neutral frame. */
  minSimilarity: number;
  /** Lowest homography residual over the turn slots (null without a turn). */
  minDepthResidual: number | null;
}

const pt = (m: Float32Array, i: number): [number, number] => [m[2 * i]!, m[2 * i + 1]!];
const dist = (a: [number, number], b: [number, number]): number => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Nose tip between the outline points, along their axis: 0 at the right outline, 1 at the left; about 0.5 frontal. Grows as the head turns to its left. */
export function nosePosition(mesh: Float32Array): number | null {
  if (mesh.length < 468 * 2) return null;
  const r = pt(mesh, OUTLINE_RIGHT);
  const l = pt(mesh, OUTLINE_LEFT);
  const n = pt(mesh, NOSE_TIP);
  const ax = l[0] - r[0];
  const ay = l[1] - r[1];
  const len2 = ax * ax + ay * ay;
  if (len2 <= 0) return null;
  return ((n[0] - r[0]) * ax + (n[1] - r[1]) * ay) / len2;
}

function eyeRatio(mesh: Float32Array, eye: typeof RIGHT_EYE | typeof LEFT_EYE): number {
  const width = dist(pt(mesh, eye.outer), pt(mesh, eye.inner));
  const open = eye.pairs.reduce((s, [a, b]) => s + dist(pt(mesh, a), pt(mesh, b)), 0) / eye.pairs.length;
  return width > 0 ? open / width : 0;
}

/** Mean eye aspect ratio of both eyes (open about 0.25–0.35, closed under 0.15). */
export function eyeAspectRatio(mesh: Float32Array): number | null {
  if (mesh.length < 468 * 2) return null;
  return (eyeRatio(mesh, RIGHT_EYE) + eyeRatio(mesh, LEFT_EYE)) / 2;
}

/** Inner-lip opening over mouth width (closed about 0, open wide above 0.3). */
export function mouthOpening(mesh: Float32Array): number | null {
  if (mesh.length < 468 * 2) return null;
  const width = dist(pt(mesh, MOUTH.left), pt(mesh, MOUTH.right));
  const open = MOUTH.pairs.reduce((s, [a, b]) => s + dist(pt(mesh, a), pt(mesh, b)), 0) / MOUTH.pairs.length;
  return width > 0 ? open / width : null;
}

/**
 * Evaluates a recorded challenge. `faces[0]` is the neutral frame, then FRAMES_PER_ACTION faces per
 * action in the order asked; a null face (none found in that frame) counts as not performed.
 */
export function evaluateChallenge(
  actions: readonly ChallengeAction[],
  faces: readonly (DetectedFace | null)[],
  t: ChallengeThresholds,
): ChallengeEvaluation {
  const neutral = faces[0] ?? null;
  const slots: SlotResult[] = [];
  let minSimilarity = neutral ? 1 : 0;
  let minDepth: number | null = null;
  for (const f of faces.slice(1)) {
    if (!neutral || !f) minSimilarity = 0;
    else minSimilarity = Math.min(minSimilarity, cosineSimilarity(neutral.embedding, f.embedding));
  }
  actions.forEach((action, k) => {
    const frames = faces.slice(1 + k * FRAMES_PER_ACTION, 1 + (k + 1) * FRAMES_PER_ACTION);
    const slot = frames.filter((f): f is DetectedFace => f !== null);
    const judged = neutral && slot.length > 0 ? judgeSlot(action, neutral, slot, t) : null;
    const contradicted = neutral ? unaskedAction(action, k > 0 ? actions[k - 1]! : null, neutral, frames, t) : null;
    const result: SlotResult = judged
      ? { ...judged, contradicted, performed: judged.performed && contradicted === null }
      : { action, contradicted, measure: null, depthResidual: null, performed: false };
    if (result.depthResidual !== null) minDepth = minDepth === null ? result.depthResidual : Math.min(minDepth, result.depthResidual);
    slots.push(result);
  });
  return { slots, minSimilarity, minDepthResidual: minDepth };
}

/**
 * A frame's motion against a reference frame: the nose shift (positive: a turn to the head's left) and the mouth
 * opening gain, null where a mesh has no measure.
 */
export function motionFrom(reference: Float32Array, mesh: Float32Array): { turn: number | null; mouth: number | null } {
  const n0 = nosePosition(reference);
  const n = nosePosition(mesh);
  const m0 = mouthOpening(reference);
  const m = mouthOpening(mesh);
  return { turn: n0 === null || n === null ? null : n - n0, mouth: m0 === null || m === null ? null : m - m0 };
}

/** The turn or open mouth a frame shows against the neutral frame (a head turned and a mouth open: both). */
function shownActions(neutral: DetectedFace, f: DetectedFace, t: ChallengeThresholds): ChallengeAction[] {
  const shown: ChallengeAction[] = [];
  const { turn, mouth } = motionFrom(neutral.mesh, f.mesh);
  if (turn !== null && turn >= t.minTurn) shown.push('turn_left');
  else if (turn !== null && -turn >= t.minTurn) shown.push('turn_right');
  if (mouth !== null && mouth >= t.minMouthOpening) shown.push('open_mouth');
  return shown;
}

/**
 * The first action a slot shows without asking for it, or null. The slot's first frame may still show the
 * previous slot's action; a blink is never counted (people blink at will).
 */
function unaskedAction(
  asked: ChallengeAction,
  previous: ChallengeAction | null,
  neutral: DetectedFace,
  frames: readonly (DetectedFace | null)[],
  t: ChallengeThresholds,
): ChallengeAction | null {
  for (const [j, f] of frames.entries()) {
    if (!f) continue;
    const other = shownActions(neutral, f, t).find((a) => a !== asked && !(j === 0 && a === previous));
    if (other) return other;
  }
  return null;
}

function judgeSlot(
  action: ChallengeAction,
  neutral: DetectedFace,
  slot: DetectedFace[],
  t: ChallengeThresholds,
): Omit<SlotResult, 'contradicted'> {
  if (action === 'turn_left' || action === 'turn_right') {
    const sign = action === 'turn_left' ? 1 : -1;
    let best: DetectedFace | null = null;
    let shift = -Infinity;
    for (const f of slot) {
      const { turn } = motionFrom(neutral.mesh, f.mesh);
      if (turn !== null && sign * turn > shift) {
        shift = sign * turn;
        best = f;
      }
    }
    if (!best) return { action, measure: null, depthResidual: null, performed: false };
    const fit = planarFit(neutral.mesh, best.mesh, Math.max(neutral.sizePx, best.sizePx));
    const depth = fit?.homographyResidual ?? 0;
    return { action, measure: shift, depthResidual: depth, performed: shift >= t.minTurn && depth >= t.minDepthResidual };
  }
  if (action === 'blink') {
    const e0 = eyeAspectRatio(neutral.mesh);
    const lowest = Math.min(...slot.map((f) => eyeAspectRatio(f.mesh) ?? Infinity));
    const ratio = e0 && Number.isFinite(lowest) ? lowest / e0 : null;
    return { action, measure: ratio, depthResidual: null, performed: ratio !== null && ratio <= t.maxBlinkRatio };
  }
  const widest = Math.max(...slot.map((f) => motionFrom(neutral.mesh, f.mesh).mouth ?? -Infinity));
  const gain = Number.isFinite(widest) ? widest : null;
  return { action, measure: gain, depthResidual: null, performed: gain !== null && gain >= t.minMouthOpening };
}
