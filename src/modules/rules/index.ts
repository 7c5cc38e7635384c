// The public face of src/modules/rules: other modules import only what is exported here.
export { rulesModule } from './routes.js';
export { activeRuleSet, compiledVersion, effectiveDraft, lastActiveRuleSet, principalOf } from './rule-set.js';
export { ruleRows } from './repository.js';
export { RULE_EVENTS } from './events.js';
