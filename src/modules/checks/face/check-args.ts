import type { RequestContext } from '../../../platform/context.js';
import type { Sealer } from '../../../platform/crypto.js';
import type { Resources } from '../../../platform/resources.js';
import type { FaceSettings } from './settings.js';

/** What every face-check verb receives. */
export interface FaceCheckArgs<I> {
  ctx: RequestContext;
  sealer: Sealer;
  settings: FaceSettings;
  /** The process's engines (the face engine, the document reader for portrait crops). */
  resources: Resources;
  input: I;
}
