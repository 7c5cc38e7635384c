import { CHECK_COMPLETED } from './kernel/index.js';
import { CONTACT_VERIFIED } from './contact/index.js';

/** The check family's events, registered by the entry point (src/modules/index.ts). */
export const CHECK_EVENTS = [CHECK_COMPLETED, CONTACT_VERIFIED];
