import { group } from '../../platform/config-schema.js';
import { contactConfig } from './contact/settings.js';
import { documentConfig } from './document/settings.js';
import { faceConfig } from './face/settings.js';
import { screeningConfig } from './screening/settings.js';

/** The check family's settings (its door for the configuration loader; imports nothing heavy). */
export const checksConfig = group({ document: documentConfig, face: faceConfig, contact: contactConfig, screening: screeningConfig });
