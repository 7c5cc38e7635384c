import type { Queryable } from '../../platform/db.js';
import type { Tenant } from '../verifications/index.js';
import type { Quality } from './schemas.js';

export interface CaptureMediaRow {
  id: string;
  kind: string;
  content_type: string;
  bytes: number;
  sha256: string;
  quality: Quality | null;
}

/** The subject's uploads: media rows with session_id set and no check yet (the pipeline links them). */
export const captureMedia = {
  /** The current upload of each kind (older ones are retired when replaced). */
  async current(db: Queryable, t: Tenant, sessionId: string): Promise<CaptureMediaRow[]> {
    return db.query<CaptureMediaRow>(
      `SELECT id, kind, content_type, bytes, sha256, quality FROM media
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND check_id IS NULL AND deleted_at IS NULL ORDER BY id`,
      [t.accountId, t.environment, sessionId],
    );
  },

  /** A new upload replaces the previous one of its kind: the old bytes are destroyed, the row stays as a trace. */
  async retire(tx: Queryable, t: Tenant, sessionId: string, kind: string): Promise<number> {
    const rows = await tx.query<{ id: string }>(
      `UPDATE media SET deleted_at = now(), data_sealed = NULL
       WHERE account_id = $1 AND environment = $2 AND session_id = $3 AND kind = $4 AND check_id IS NULL AND deleted_at IS NULL RETURNING id`,
      [t.accountId, t.environment, sessionId, kind],
    );
    return rows.length;
  },

  async setQuality(tx: Queryable, t: Tenant, mediaId: string, quality: Quality): Promise<void> {
    await tx.query('UPDATE media SET quality = $4::jsonb WHERE account_id = $1 AND environment = $2 AND id = $3', [
      t.accountId,
      t.environment,
      mediaId,
      JSON.stringify(quality),
    ]);
  },
};
