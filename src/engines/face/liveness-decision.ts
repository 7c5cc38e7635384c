import { signal, type CheckVerdict, type Signal } from '../signal.js';
import { describeFaces, primaryFace, round } from './match-decision.js';
import { meshMotion } from './motion.js';
import { planarFit } from './flatness.js';
import { cosineSimilarity, FACE_REVIEW_THRESHOLD } from './similarity.js';
import {
  PASSIVE_FAIL_MIN_SIDE_PX,
  PASSIVE_LIVENESS_MODEL,
  PASSIVE_MOIRE_MIN_TILE,
  passiveFeatures,
  passiveScore,
} from './passive-score.js';
import type { DetectedFace, FaceAnalysis } from './types.js';
import {
  challengeFrameCount,
  DEFAULT_CHALLENGE_THRESHOLDS,
  evaluateChallenge,
  type ChallengeAction,
  type ChallengeThresholds,
} from './challenge.js';

/**
 * Liveness thresholds. Defaults come from bench/face-quality.ts (figures in docs/face.md): each is
 * set just outside what bona fide photos of ../shared/data/faces showed, so they catch gross attacks
 * (recaptured document portraits, blurred reprints, screens with visible moiré) rather than promise
 * a low APCER. The learned scores did NOT separate the three minivision samples (the real one scored
 * lowest on anti-spoofing), which is why texture signals carry weight and borderline cases go to review.
 */
export interface LivenessThresholds {
  /** Combined score at or above which the capture passes. */
  threshold: number;
  /** Human anti-spoofing "real" confidence below which the frame fails (bona fide minimum seen 0.31). */
  minAntispoof: number;
  /** Human liveness confidence below which the frame fails (bona fide minimum seen 0.42). */
  minLiveness: number;
  /**
   * Moiré peak ratio above which the frame goes to review (bona fide deepface photos up to 46; live webcam
   * frames of ../shared/data/real/liveness up to 221, NUAA prints p50 47). It also weighs in the passive score.
   */
  maxMoire: number;
  /**
   * Moiré peak ratio above which the frame fails outright, when measured on a face square of at least
   * PASSIVE_MOIRE_MIN_TILE px (a screen's pixel grid: the real screen attack of the set reached 2,831; no bona
   * fide capture or photo measured went above 221). Under that size the measure is insufficient evidence: review.
   */
  strongMoire: number;
  /** Laplacian variance below which the face is too soft for a live capture (bona fide minimum seen 130). */
  minSharpness: number;
}

export const DEFAULT_LIVENESS_THRESHOLDS: LivenessThresholds = {
  threshold: 0.5,
  minAntispoof: 0.25,
  minLiveness: 0.3,
  maxMoire: 60,
  strongMoire: 300,
  minSharpness: 100,
};

/** Consecutive frames whose meshes agree this closely (share of face width) are copies of one still. */
const IDENTICAL_FRAME_MOTION = 0.0005;

export interface LivenessDecision {
  verdict: CheckVerdict;
  score: number;
  threshold: number;
  signals: Signal[];
}

export function decideLiveness(
  frames: readonly FaceAnalysis[],
  overrides: Partial<LivenessThresholds> = {},
  challenge?: { actions: readonly ChallengeAction[]; thresholds?: Partial<ChallengeThresholds> },
): LivenessDecision {
  const t = { ...DEFAULT_LIVENESS_THRESHOLDS, ...overrides };
  if (challenge) return decideChallenge(frames, t, challenge.actions, { ...DEFAULT_CHALLENGE_THRESHOLDS, ...challenge.thresholds });
  const signals: Signal[] = [];
  const faces: { face: DetectedFace; image: FaceAnalysis['image'] }[] = [];
  frames.forEach((frame, i) => {
    const role = frames.length === 1 ? 'selfie' : `frame_${i}`;
    signals.push(...describeFaces(frame, role, false));
    const face = primaryFace(frame);
    if (face) faces.push({ face, image: frame.image });
  });
  if (faces.length < frames.length) return { verdict: 'failed', score: 0, threshold: t.threshold, signals };

  const { hard, soft, info } = passiveSignals(
    faces.map((f) => f.face),
    t,
  );
  // The fused passive score (passive-score.ts), lowest frame: 0.5 is the calibrated pass point, which the
  // `threshold` option moves; under PASSIVE_LIVENESS_MODEL.failBelow the passive evidence alone fails.
  const scored = faces.map((f) => {
    const features = passiveFeatures(f.face, f.image);
    return { score: passiveScore(features), side: features.sidePx ?? 0 };
  });
  const lowest = scored.reduce((a, b) => (b.score < a.score ? b : a));
  const score = round(lowest.score);
  // A low score on a face too small for the texture measures (upsampled) is not enough to refuse: review.
  const canRefuse = lowest.side >= PASSIVE_FAIL_MIN_SIDE_PX;
  const fused = signal(
    'passive_liveness_score',
    score,
    score >= t.threshold ? true : score < PASSIVE_LIVENESS_MODEL.failBelow && canRefuse ? false : null,
    {
      threshold: t.threshold,
      detail:
        score < PASSIVE_LIVENESS_MODEL.failBelow && !canRefuse
          ? `Insufficient evidence: a low score on a face under ${PASSIVE_FAIL_MIN_SIDE_PX} px (upsampled for the texture measures) goes to review, not a fail.`
          : `Logistic score over scale-normalised sharpness and moiré, fitted on real live/attack captures; under ${PASSIVE_LIVENESS_MODEL.failBelow} fails (faces of ${PASSIVE_FAIL_MIN_SIDE_PX} px or more), between that and the threshold goes to review.`,
    },
  );
  signals.push(fused, ...hard, ...soft, ...info);

  const burst = burstSignals(faces.map((f) => f.face));
  signals.push(...burst);

  const hardFail = hard.some((s) => s.passed === false) || burst.some((s) => s.passed === false) || fused.passed === false;
  const otherDoubt =
    signals.some((s) => s.passed === false) || fused.passed !== true || soft.some((s) => s.passed === null && s.value !== null);
  let verdict: CheckVerdict;
  if (hardFail) verdict = 'failed';
  else if (otherDoubt) verdict = 'needs_review';
  else verdict = 'passed';
  return { verdict, score, threshold: t.threshold, signals };
}

/**
 * The passive model and texture signals over `faces` (lowest/highest frame). Hard (fail): the model floors and
 * a strong moiré peak measured on a face square of at least PASSIVE_MOIRE_MIN_TILE px. Soft (review): a moiré
 * peak above `maxMoire`, or above it on a smaller face (insufficient evidence: `passed` null, never a fail).
 * Sharpness is informational: it weighs in the passive score, scale-normalised.
 */
function passiveSignals(faces: DetectedFace[], t: LivenessThresholds): { hard: Signal[]; soft: Signal[]; info: Signal[] } {
  const worst = (pick: (f: DetectedFace) => number, lowest: boolean): number => {
    const values = faces.map(pick);
    return lowest ? Math.min(...values) : Math.max(...values);
  };
  const antispoof = worst((f) => f.antispoof ?? 0, true);
  const liveness = worst((f) => f.liveness ?? 0, true);
  // Faces too small for the moiré measure (moireTilePx 0) do not count: a missing measure is no evidence.
  const measured = faces.filter((f) => (f.texture?.moireTilePx ?? 0) > 0);
  const top = measured.length > 0 ? measured.reduce((a, b) => (b.texture!.moirePeakRatio > a.texture!.moirePeakRatio ? b : a)) : null;
  const moire = top ? top.texture!.moirePeakRatio : null;
  const enough = top ? top.texture!.moireTilePx >= PASSIVE_MOIRE_MIN_TILE : false;
  const sharpness = worst((f) => f.texture?.sharpness ?? Infinity, true);
  const glare = worst((f) => f.texture?.glareShare ?? 0, false);

  const hard: Signal[] = [
    signal('antispoof_score', round(antispoof), antispoof >= t.minAntispoof, {
      threshold: t.minAntispoof,
      detail: 'Human anti-spoofing model, lowest frame.',
    }),
    signal('liveness_model_score', round(liveness), liveness >= t.minLiveness, {
      threshold: t.minLiveness,
      detail: 'Human liveness model, lowest frame.',
    }),
    signal('screen_moire_strong', moire === null ? null : round(moire, 1), moire === null || !enough ? null : moire <= t.strongMoire, {
      threshold: t.strongMoire,
      detail: enough
        ? 'A screen pixel grid: moiré peak far above any bona fide capture measured, on a face square large enough to carry it.'
        : `Not judged: the face square is under ${PASSIVE_MOIRE_MIN_TILE} px, too small to carry screen moiré (insufficient evidence).`,
    }),
  ];
  const soft: Signal[] = [
    signal(
      'screen_moire_peak_ratio',
      moire === null ? null : round(moire, 1),
      moire === null ? null : moire <= t.maxMoire ? true : enough ? false : null,
      {
        threshold: t.maxMoire,
        detail:
          moire === null
            ? 'Not measured: the face is under 64 px.'
            : enough || moire <= t.maxMoire
              ? 'Strongest periodic peak in the face square spectrum, never upsampled, JPEG block grid skipped (screens, halftone print); above the threshold: review.'
              : `Insufficient evidence: a peak above the threshold on a face square under ${PASSIVE_MOIRE_MIN_TILE} px (low-resolution photos show such peaks too): review, not a fail.`,
      },
    ),
  ];
  const info = [
    signal('face_sharpness', round(sharpness, 1), null, {
      threshold: t.minSharpness,
      detail: 'Laplacian variance of the face crop (reprints lose detail); weighs in the passive score after scale normalisation.',
    }),
    signal('glare_share', round(glare), null, { detail: 'Share of saturated white pixels on the face.' }),
  ];
  return { hard, soft, info };
}

/**
 * A recorded challenge (challenge.ts): frame 0 neutral, then FRAMES_PER_ACTION frames per asked action.
 * The physical tests decide: every action seen in its own slot, the turns leave depth a plane cannot, one
 * person throughout. The passive model and moiré floors still apply to the neutral frame (a screen replay
 * of a real head passes the depth test); sharpness is informational here, as the challenge is the evidence.
 */
function decideChallenge(
  frames: readonly FaceAnalysis[],
  t: LivenessThresholds,
  actions: readonly ChallengeAction[],
  ct: ChallengeThresholds,
): LivenessDecision {
  const expected = challengeFrameCount(actions.length);
  const signals: Signal[] = [
    signal('challenge_frames', frames.length, frames.length === expected, {
      threshold: expected,
      detail: `One neutral frame and the frames of each asked action (${actions.join(', ')}).`,
    }),
  ];
  const neutral = frames[0] ? primaryFace(frames[0]) : null;
  if (frames[0]) signals.push(...describeFaces(frames[0], 'frame_0', false));
  if (frames.length !== expected || !neutral) return { verdict: 'failed', score: 0, threshold: t.threshold, signals };
  const ev = evaluateChallenge(
    actions,
    frames.map((f) => primaryFace(f)),
    ct,
  );
  const { hard, soft, info } = passiveSignals([neutral], t);
  const performed = ev.slots.filter((s) => s.performed).length;
  const challengeSignals = [
    signal('challenge_actions_performed', performed, performed === actions.length, {
      threshold: actions.length,
      detail: `Asked actions seen in their own slot and nothing else asked there, in order: ${ev.slots.map((s) => `${s.action} ${s.performed ? 'seen' : 'not seen'} (${s.measure === null ? 'no face' : round(s.measure)}${s.contradicted ? `; ${s.contradicted} shown unasked` : ''})`).join('; ')}.`,
    }),
    signal(
      'challenge_depth_residual',
      ev.minDepthResidual === null ? null : round(ev.minDepthResidual),
      ev.minDepthResidual === null ? null : ev.minDepthResidual >= ct.minDepthResidual,
      {
        threshold: ct.minDepthResidual,
        detail:
          'Lowest landmark motion of an asked head turn that no homography explains (share of face width): a print or screen turned in front of the camera is a plane and stays below it.',
      },
    ),
    signal('challenge_same_person', round(ev.minSimilarity), ev.minSimilarity >= ct.minSamePerson, {
      threshold: ct.minSamePerson,
      detail: 'Lowest embedding similarity of any frame to the neutral frame: a face swapped mid-challenge fails.',
    }),
  ];
  signals.push(...challengeSignals, ...hard, ...soft, ...info);
  let score = performed / Math.max(1, actions.length);
  for (const s of challengeSignals.slice(1)) if (s.passed === false) score *= 0.5;
  for (const s of hard) if (s.passed === false) score *= 0.5;
  score = round(score);
  const failed = challengeSignals.some((s) => s.passed === false) || hard.some((s) => s.passed === false);
  // A moiré peak above maxMoire (or unjudgeable on a small face) leaves a screen replay possible: review.
  const doubt = soft.some((s) => s.passed !== true && s.value !== null);
  return { verdict: failed ? 'failed' : doubt ? 'needs_review' : 'passed', score, threshold: t.threshold, signals };
}

function burstSignals(faces: DetectedFace[]): Signal[] {
  if (faces.length < 2) return [];
  const out: Signal[] = [];
  let minSimilarity = 1;
  let maxResidual = 0;
  let maxDisplacement = 0;
  let identicalPairs = 0;
  let planarResidual = 0;
  for (let i = 1; i < faces.length; i++) {
    const prev = faces[i - 1]!;
    const cur = faces[i]!;
    minSimilarity = Math.min(minSimilarity, cosineSimilarity(prev.embedding, cur.embedding));
    const motion = meshMotion(prev.mesh, cur.mesh, Math.max(prev.sizePx, cur.sizePx));
    if (!motion) continue;
    maxResidual = Math.max(maxResidual, motion.nonRigidResidual);
    maxDisplacement = Math.max(maxDisplacement, motion.displacement);
    if (motion.displacement < IDENTICAL_FRAME_MOTION) identicalPairs++;
    const plane = planarFit(faces[0]!.mesh, cur.mesh, Math.max(faces[0]!.sizePx, cur.sizePx));
    if (plane) planarResidual = Math.max(planarResidual, plane.homographyResidual);
  }
  out.push(
    signal('frames_same_person', round(minSimilarity), minSimilarity >= FACE_REVIEW_THRESHOLD, {
      threshold: FACE_REVIEW_THRESHOLD,
      detail: 'Lowest embedding similarity between consecutive frames; a swap mid-capture fails.',
    }),
  );
  out.push(
    signal('frames_identical', identicalPairs, identicalPairs < faces.length - 1, {
      threshold: faces.length - 1,
      detail: 'Consecutive frame pairs with no landmark motion at all: a still image replayed as a burst.',
    }),
  );
  out.push(
    signal('frame_motion', round(maxDisplacement), null, {
      detail: 'Largest mean landmark displacement between frames, share of face width.',
    }),
  );
  out.push(
    signal('frame_non_rigid_motion', round(maxResidual), null, {
      detail:
        'Largest landmark motion an affine map cannot explain (a moved flat photo stays near 0). Informational: not calibrated on real bursts.',
    }),
  );
  out.push(
    signal('frame_planar_residual', round(planarResidual), null, {
      detail:
        'Largest landmark motion against the first frame that no homography explains, share of face width: a print or screen is a plane (0.004–0.006 measured on real and simulated prints), a head turning in depth is not. Informational until a head-turn challenge makes it decisive (docs/face.md).',
    }),
  );
  return out;
}
