import { createServer, request, type Server } from 'node:http';
import { chmodSync, rmSync } from 'node:fs';
import type { Db } from '../platform/db.js';
import type { Config } from '../config.js';
import type { Resources } from '../platform/resources.js';
import { runCommand, type CliInput } from './commands.js';

export interface RemoteResult {
  code: number;
  stdout: string[];
  stderr: string[];
}

/**
 * The running server's side of the embedded-database CLI: a Unix socket that only the owner of
 * DATA_DIR can open (mode 0600), accepting one CLI invocation per request.
 */
export async function startAdminSocket(
  db: Db,
  config: Config,
  path: string,
  afterCommand: () => void = () => undefined,
  resources?: Resources,
): Promise<Server> {
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const out: RemoteResult = { code: 0, stdout: [], stderr: [] };
      try {
        const { argv, input } = JSON.parse(body) as { argv: string[]; input?: CliInput };
        out.code = await runCommand(
          db,
          argv,
          { out: (l) => out.stdout.push(l), err: (l) => out.stderr.push(l) },
          config,
          input ?? {},
          resources,
        );
        // A key revoked here must stop working in this process at once, not after the cache TTL.
        afterCommand();
      } catch (err) {
        out.code = 1;
        out.stderr.push(`error: ${(err as Error).message}`);
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

/** Sends one CLI invocation; `input` (a password) travels in the body, never in argv. */
export function runRemote(path: string, argv: string[], input: CliInput = {}): Promise<RemoteResult> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: path, path: '/run', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as RemoteResult);
        } catch (err) {
          reject(err);
        }
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ argv, input }));
  });
}
