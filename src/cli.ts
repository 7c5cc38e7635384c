#!/usr/bin/env node
import { loadConfig, ConfigError } from './config.js';
import { openDb, migrate } from './platform/db.js';
import { acquireLock, readLock } from './platform/embedded-lock.js';
import { runCommand, USAGE, type CliInput } from './cli/commands.js';
import { readPassword } from './cli/password-input.js';
import { runRemote } from './cli/admin-socket.js';
import { configureAuditKey } from './platform/audit.js';
import { registerEvents } from './platform/event-catalog.js';
import { CASE_SUBJECT_SOURCES, EVENTS, registerCaseSubjectSources } from './modules/index.js';
import { resolve } from 'node:path';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  configureAuditKey(config.masterKey);
  registerEvents(EVENTS);
  registerCaseSubjectSources(CASE_SUBJECT_SOURCES);
  // A checkpoint file is read by whichever process runs the command (the server, over the admin socket).
  argv = argv.map((a, i) =>
    argv[i - 1] === '--checkpoint' || (i === 2 && argv[0] === 'registries' && argv[1] === 'import' && !a.startsWith('-')) ? resolve(a) : a,
  );
  const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };
  const input: CliInput = {};
  if (argv[0] === 'operators' && argv[1] === 'create') {
    const password = await readPassword(argv.includes('--password-stdin'));
    if (password === null) {
      io.err('error: no password: pipe it with --password-stdin or run in a terminal to be prompted');
      return 64;
    }
    input.password = password;
  }
  if (!config.databaseUrl) {
    const lock = readLock(config.dataDir);
    if (lock && lock.pid !== process.pid) {
      if (!lock.socket) {
        io.err(`The embedded database in ${config.dataDir} is in use by process ${lock.pid}, which has no admin socket. Stop it first.`);
        return 1;
      }
      const r = await runRemote(lock.socket, argv, input);
      r.stdout.forEach(io.out);
      r.stderr.forEach(io.err);
      return r.code;
    }
  }
  const release = config.databaseUrl ? () => undefined : acquireLock(config.dataDir, null);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2, embeddedThread: config.embeddedThread });
  try {
    if (argv[0] !== 'migrate') await migrate(db);
    return await runCommand(db, argv, io, config, input);
  } finally {
    await db.close();
    release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : `error: ${(err as Error).message}`);
    process.exit(1);
  },
);
