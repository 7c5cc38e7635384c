// The public face of src/modules/monitoring: other modules import only what is exported here.
export { enrolSubject } from './enrol.js';
export { monitoringJobHandlers } from './jobs.js';
export { monitoringModule } from './routes.js';
export { MONITORING_EVENTS } from './events.js';
export { monitoringAlertCaseSubject } from './case-subject.js';
