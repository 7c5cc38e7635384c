import { createHash } from 'node:crypto';
import type { Queryable } from '../../../platform/db.js';
import type { Sealer } from '../../../platform/crypto.js';
import { conflict, notFound } from '../../../platform/errors.js';
import { iso } from '../../../platform/schemas.js';
import { MEDIA_PURPOSE, RESULT_PURPOSE, sessionChecks, sessionMedia, type CheckPayload } from '../../checks/index.js';
import { sessions, type SessionRow, type Tenant } from '../repository.js';
import { toDecision } from '../decision.js';
import type { DecisionObject, Verification } from '../schemas.js';
import type { SessionState } from '../state-machine.js';
import { readZip, writeZip, ZipError, type ZipEntry } from './evidence-zip.js';
import { loadVerificationDetail } from '../corrections/view.js';

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export interface EvidenceCheck {
  id: string;
  type: string;
  status: string;
  score: number | null;
  reasons: string[];
  signals: CheckPayload['signals'];
  model: CheckPayload['model'];
  timings: CheckPayload['timings'];
  result: CheckPayload['result'];
  created_at: string;
  completed_at: string | null;
  redacted_at: string | null;
}

/** A medium as the report lists it: what it is and its size, without opening it. */
export interface EvidenceMediaInfo {
  id: string;
  check_id: string | null;
  kind: string;
  content_type: string;
  sha256: string;
  bytes: number;
}
export interface EvidenceMedia extends EvidenceMediaInfo {
  data: Buffer;
}

/** Everything a session's evidence bundle (media opened) and report (media listed) are made of, read in one place. */
export interface SessionEvidence<M extends EvidenceMediaInfo = EvidenceMedia> {
  session: Verification & { transitions: NonNullable<Verification['transitions']> };
  decision: DecisionObject | null;
  checks: EvidenceCheck[];
  media: M[];
}

type DeletableRow = SessionRow & { effective_status: SessionState; deleted_at?: Date | null };

/** 409 for a deleted session: its evidence was destroyed on purpose and cannot be produced again. */
export function assertNotDeleted(s: { deleted_at?: Date | null }): void {
  if (s.deleted_at)
    throw conflict(
      `The session was deleted at ${iso(s.deleted_at)}; its personal data and media no longer exist (only the tombstone remains).`,
    );
}

/** With `media: 'listed'` the media are described, not decrypted (the report only names them and their sizes). */
export async function loadEvidence(db: Queryable, t: Tenant, sealer: Sealer, id: string, hostedBaseUrl: string): Promise<SessionEvidence>;
export async function loadEvidence(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  id: string,
  hostedBaseUrl: string,
  o: { media: 'listed' },
): Promise<SessionEvidence<EvidenceMediaInfo>>;
export async function loadEvidence(
  db: Queryable,
  t: Tenant,
  sealer: Sealer,
  id: string,
  hostedBaseUrl: string,
  o?: { media: 'listed' },
): Promise<SessionEvidence<EvidenceMediaInfo>> {
  const s = (await sessions.get(db, t, id)) as DeletableRow | null;
  if (!s) throw notFound('verification', 'id');
  assertNotDeleted(s);
  const checkRows = await sessionChecks.details(db, t, id);
  // The session as GET shows it: checks, the transition trail, extracted fields and reviewer corrections.
  const detail = await loadVerificationDetail(db, t, sealer, id, hostedBaseUrl);
  const session = { ...detail, transitions: detail.transitions ?? [] };
  const decision = s.decision && s.risk_score !== null && s.risk_band ? toDecision(s, s.effective_status, checkRows) : null;
  const checks = checkRows.map((c): EvidenceCheck => {
    const p: CheckPayload = c.result_sealed
      ? JSON.parse(sealer.open(RESULT_PURPOSE, c.result_sealed))
      : { reasons: [], signals: [], model: [], timings: {}, result: {} };
    return {
      id: c.id,
      type: c.type,
      status: c.status,
      score: c.score,
      reasons: p.reasons,
      signals: p.signals,
      model: p.model,
      timings: p.timings,
      result: p.result,
      created_at: iso(c.created_at)!,
      completed_at: iso(c.completed_at),
      redacted_at: iso(c.redacted_at),
    };
  });
  const listed = o?.media === 'listed';
  const mediaRows = await sessionMedia.evidence(
    db,
    t,
    id,
    checkRows.map((c) => c.id),
    listed,
  );
  const media = listed
    ? mediaRows
    : mediaRows.map(({ data_sealed, ...m }) => ({ ...m, data: sealer.openBytes(MEDIA_PURPOSE, Buffer.from(data_sealed!)) }));
  return { session, decision, checks, media };
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/tiff': 'tif',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'text/plain': 'txt',
  'application/json': 'json',
};
export const extensionFor = (contentType: string) => EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? 'bin';

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
  content_type?: string;
  kind?: string;
  check_id?: string | null;
}
export interface Manifest {
  format: 'verity-evidence/1';
  session_id: string;
  generated_at: string;
  files: ManifestFile[];
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2) + '\n', 'utf8');

/**
 * The bundle's files: session.json, decision.json (when decided), checks/<id>.json, media/<id>.<ext>,
 * then manifest.json (path, size and SHA-256 of every other file) and manifest.sha256 (the SHA-256 of
 * manifest.json, the one value to compare with the audit row of the export).
 */
export function evidenceFiles(e: SessionEvidence, generatedAt: Date): { files: ZipEntry[]; manifestSha256: string } {
  const files: ZipEntry[] = [{ path: 'session.json', data: json(e.session) }];
  if (e.decision) files.push({ path: 'decision.json', data: json(e.decision) });
  for (const c of e.checks) files.push({ path: `checks/${c.id}.json`, data: json(c) });
  const extra = new Map<string, Partial<ManifestFile>>();
  for (const m of e.media) {
    const path = `media/${m.id}.${extensionFor(m.content_type)}`;
    files.push({ path, data: m.data });
    extra.set(path, { content_type: m.content_type, kind: m.kind, check_id: m.check_id });
  }
  const manifest: Manifest = {
    format: 'verity-evidence/1',
    session_id: e.session.id,
    generated_at: generatedAt.toISOString(),
    files: files.map((f) => ({ path: f.path, size: f.data.length, sha256: sha256(f.data), ...extra.get(f.path) })),
  };
  const manifestBytes = json(manifest);
  const manifestSha256 = sha256(manifestBytes);
  return {
    files: [
      { path: 'manifest.json', data: manifestBytes },
      ...files,
      { path: 'manifest.sha256', data: Buffer.from(`${manifestSha256}  manifest.json\n`) },
    ],
    manifestSha256,
  };
}

export function buildEvidenceZip(e: SessionEvidence, generatedAt: Date): { zip: Buffer; manifestSha256: string } {
  const { files, manifestSha256 } = evidenceFiles(e, generatedAt);
  return { zip: writeZip(files, generatedAt), manifestSha256 };
}

export interface BundleVerification {
  ok: boolean;
  session_id: string | null;
  manifest_sha256: string | null;
  /** Every discrepancy found, one line each (empty when ok). */
  problems: string[];
}

/**
 * Verifies an evidence bundle without trusting anything in it but the hashes: manifest.sha256 must be
 * the SHA-256 of manifest.json, and every file the manifest lists must be present with its size and
 * SHA-256; a file the manifest does not list is a problem too. Pass `expectedManifestSha256` (from the
 * audit trail) to also rule out a bundle whose manifest was rewritten together with its hash. Pure.
 */
export function verifyEvidenceBundle(zip: Buffer, expectedManifestSha256?: string): BundleVerification {
  let entries: ZipEntry[];
  try {
    entries = readZip(zip);
  } catch (err) {
    if (err instanceof ZipError) return { ok: false, session_id: null, manifest_sha256: null, problems: [err.message] };
    throw err;
  }
  const problems: string[] = [];
  const byPath = new Map<string, Buffer>();
  for (const e of entries) {
    if (byPath.has(e.path)) problems.push(`${e.path}: appears twice`);
    byPath.set(e.path, e.data);
  }
  const manifestBytes = byPath.get('manifest.json');
  if (!manifestBytes) return { ok: false, session_id: null, manifest_sha256: null, problems: ['manifest.json is missing'] };
  const actual = sha256(manifestBytes);
  const recorded = byPath.get('manifest.sha256')?.toString('utf8').trim().split(/\s+/)[0];
  if (!recorded) problems.push('manifest.sha256 is missing');
  else if (recorded !== actual) problems.push(`manifest.json: SHA-256 ${actual} differs from manifest.sha256 (${recorded})`);
  if (expectedManifestSha256 && expectedManifestSha256 !== actual)
    problems.push(`manifest.json: SHA-256 ${actual} differs from the expected ${expectedManifestSha256}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
    if (!Array.isArray(manifest.files)) throw new Error('no files');
  } catch {
    return { ok: false, session_id: null, manifest_sha256: actual, problems: [...problems, 'manifest.json is not a valid manifest'] };
  }
  const listed = new Set<string>();
  for (const f of manifest.files) {
    listed.add(f.path);
    const data = byPath.get(f.path);
    if (!data) {
      problems.push(`${f.path}: listed in the manifest but missing`);
      continue;
    }
    if (data.length !== f.size) problems.push(`${f.path}: ${data.length} bytes, the manifest says ${f.size}`);
    const h = sha256(data);
    if (h !== f.sha256) problems.push(`${f.path}: SHA-256 ${h} differs from the manifest (${f.sha256})`);
  }
  for (const path of byPath.keys()) {
    if (path !== 'manifest.json' && path !== 'manifest.sha256' && !listed.has(path)) problems.push(`${path}: not listed in the manifest`);
  }
  return { ok: problems.length === 0, session_id: manifest.session_id ?? null, manifest_sha256: actual, problems };
}
