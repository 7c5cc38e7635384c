import type { Queryable } from '../../platform/db.js';
import type { Tenant } from '../verifications/index.js';
import { sessionMedia, type SessionMediaRow } from '../checks/index.js';
import type { Quality } from './schemas.js';

export type CaptureMediaRow = SessionMediaRow<Quality>;

/**
 * The subject's uploads: media rows with session_id set and no check yet (the pipeline links them).
 * The checks kernel owns `media`; capture reads and writes it through the kernel's face.
 */
export const captureMedia = {
  /** The current upload of each kind (older ones are retired when replaced). */
  current: (db: Queryable, t: Tenant, sessionId: string): Promise<CaptureMediaRow[]> => sessionMedia.current<Quality>(db, t, sessionId),
  /** A new upload replaces the previous one of its kind: the old bytes are destroyed, the row stays as a trace. */
  retire: (tx: Queryable, t: Tenant, sessionId: string, kind: string | readonly string[]): Promise<number> =>
    sessionMedia.retire(tx, t, sessionId, kind),
  setQuality: (tx: Queryable, t: Tenant, mediaId: string, quality: Quality): Promise<void> =>
    sessionMedia.setQuality(tx, t, mediaId, quality),
};
