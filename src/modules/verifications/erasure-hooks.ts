import type { ErasureHook } from '../../platform/erasure.js';
import { checkErasure, mediaErasure } from '../checks/index.js';
import { faceEnrollmentErasure } from '../checks/index.js';
import { caseCommentErasure } from '../cases/index.js';

/**
 * What erasing a verification session removes in other modules, each by its owning module's hook,
 * in this order (the same lock order every time): media, the face enrolment, the checks' results, the
 * comments of the session's cases.
 * The session row, its corrections and its open case follow in delete.ts. A new module holding a
 * subject's data adds its hook here.
 */
export const SESSION_ERASURE_HOOKS: readonly ErasureHook[] = [mediaErasure, faceEnrollmentErasure, checkErasure, caseCommentErasure];
