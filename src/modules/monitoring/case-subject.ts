import type { CaseSubjectSource } from '../cases/index.js';
import { monitoringAlerts } from './repository.js';

/** A monitoring alert's case: its subject is the alert's, and closing the case closes the alert. */
export const monitoringAlertCaseSubject: CaseSubjectSource = {
  column: 'alert_id',
  subjectReferences: (db, t, ids) => monitoringAlerts.subjectReferences(db, t, ids),
  caseClosed: (tx, t, id) => monitoringAlerts.closeForCase(tx, t, id),
};
