// The public face of src/modules/checks/face: other modules import only what is exported here.
export { evaluateAge } from './age-estimation.js';
export { FACE_ENGINE } from './engine.js';
export { FACE_INDEX, embeddingModelKey } from './face-index-cache.js';
export { evaluateFaceMatch } from './face-match.js';
export { evaluateLiveness } from './liveness.js';
export { faceEnrollmentErasure, faceEnrollments, hasVectorColumn, newEnrollmentId } from './repository.js';
export { faceChecksModule } from './routes.js';
