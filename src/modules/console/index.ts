// The public face of src/modules/console: operators, console sessions and the console page.
export { consoleModule } from './routes.js';
export { consoleGate } from './gate.js';
export { ConsoleAuth, createOperator, UsageProblem } from './service.js';
export { consoleSettings } from './settings.js';
export { ROLES, ROLE_SCOPES, isRole, type Role } from './policy.js';
export { listOperators, disableOperator, operatorView } from './repository.js';
