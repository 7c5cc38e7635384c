// Public surface of the face engine (HTTP modules and jobs import from here).
export { createFaceEngine, MAX_LIVENESS_FRAMES } from './face-engine.js';
export type { FaceEngine, FaceEngineOptions, MatchOptions, LivenessOptions, AgeOptions } from './face-engine.js';
export { FaceIndex } from './face-index.js';
export { searchFace } from './face-search.js';
export type { FaceSearchOptions, FaceSearchResult } from './face-search.js';
export type { FaceIndexHit, SearchOptions } from './face-index.js';
export { FaceInputError, isFaceInputError } from './errors.js';
export type { FaceInputReason } from './errors.js';
export { DEFAULT_IMAGE_LIMITS } from './image-input.js';
export type { ImageLimits } from './image-input.js';
export {
  cosineSimilarity,
  normalizeEmbedding,
  EMBEDDING_DIMENSIONS,
  FACE_MATCH_THRESHOLD,
  FACE_REVIEW_THRESHOLD,
  FACE_DUPLICATE_THRESHOLD,
} from './similarity.js';
export { DEFAULT_LIVENESS_THRESHOLDS } from './liveness-decision.js';
export type { LivenessThresholds } from './liveness-decision.js';
export { AGE_BASE_UNCERTAINTY_YEARS } from './age-decision.js';
export type {
  AgeResult,
  DetectedFace,
  EmbedResult,
  FaceAnalysis,
  FaceEmbedder,
  FaceMatchResult,
  ImageInfo,
  LivenessResult,
  TextureMeasures,
  WorkerInfo,
} from './types.js';
export {
  CHALLENGE_ACTIONS,
  CHALLENGE_LENGTH,
  FRAMES_PER_ACTION,
  MAX_CHALLENGE_FRAMES,
  DEFAULT_CHALLENGE_THRESHOLDS,
  challengeFrameCount,
} from './challenge.js';
export type { ChallengeAction, ChallengeThresholds } from './challenge.js';
