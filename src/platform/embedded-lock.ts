import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite is a single-process database: two processes opening one DATA_DIR would corrupt it.
 * The process that opens it writes DATA_DIR/verity.lock with its pid and the path of its admin
 * socket; the CLI forwards its commands to that socket instead of opening the files itself.
 */
export interface EmbeddedLock {
  pid: number;
  socket: string | null;
}

export function lockPath(dataDir: string): string {
  return join(dataDir, 'verity.lock');
}

export function adminSocketPath(dataDir: string): string {
  return join(dataDir, 'admin.sock');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(dataDir: string): EmbeddedLock | null {
  const file = lockPath(dataDir);
  if (!existsSync(file)) return null;
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedLock;
    return alive(lock.pid) ? lock : null;
  } catch {
    return null;
  }
}

export function acquireLock(dataDir: string, socket: string | null): () => void {
  mkdirSync(dataDir, { recursive: true });
  const held = readLock(dataDir);
  if (held && held.pid !== process.pid) {
    throw new Error(
      `DATA_DIR ${dataDir} is in use by process ${held.pid}. The embedded database allows one process; stop it, or use DATABASE_URL for several processes.`,
    );
  }
  writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, socket }), { mode: 0o600 });
  return () => {
    const now = readLock(dataDir);
    if (!now || now.pid === process.pid) rmSync(lockPath(dataDir), { force: true });
  };
}
