import { group } from '../../platform/config-schema.js';
import { importsConfig } from './imports/settings.js';

/** The verifications module's settings (its door for the configuration loader; imports nothing heavy). */
export const verificationsConfig = group({ imports: importsConfig });
