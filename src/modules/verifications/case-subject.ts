import type { CaseSubjectSource } from '../cases/index.js';
import { sessions } from './repository.js';

/** A verification review case: its subject is the session's (it closes with the session's decision). */
export const sessionCaseSubject: CaseSubjectSource = {
  column: 'session_id',
  subjectReferences: (db, t, ids) => sessions.subjectReferences(db, t, ids),
};
