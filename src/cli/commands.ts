import { parseArgs } from 'node:util';
import type { Db } from '../platform/db.js';
import type { Config } from '../config.js';
import { migrate } from '../platform/db.js';
import { createAccount, getAccount, listAccounts } from '../platform/accounts.js';
import { seedDefaultJourneys } from '../modules/journeys/index.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../platform/api-keys.js';
import { parseScopes } from '../platform/scopes.js';
import { auditCheckpoint, checkAuditCheckpoint, sealAuditChain, verifyAuditChain, type AuditCheckpoint } from '../platform/audit.js';
import { readFileSync } from 'node:fs';
import { LISTS_USAGE, runListsCommand } from '../modules/checks/index.js';
import { ROLES, UsageProblem, createOperator, disableOperator, isRole, listOperators, operatorView } from '../modules/console/index.js';
import { Sealer } from '../platform/crypto.js';
import { createResources, type Resources } from '../platform/resources.js';
import { runTravelRuleCommand, TRAVEL_RULE_USAGE } from '../modules/travel-rule/index.js';
import { WALLETS_USAGE, runWalletsCommand } from '../modules/wallets/index.js';
import { runTransactionsImport, TRANSACTIONS_USAGE } from '../modules/transactions/index.js';
import { REGISTRIES_USAGE, runRegistriesCommand } from '../modules/businesses/index.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `verity <command> [options]

Commands:
  migrate                                   apply database migrations
  accounts create [--name NAME] [--rate-limit N] [--json]
  accounts list [--json]
  keys create --account ID --environment sandbox|production [--scopes a:read,b:write|*] [--name NAME] [--rate-limit N] [--json]
  keys list [--account ID] [--json]
  keys revoke ID [--json]
  operators create --account ID --email EMAIL --role admin|reviewer|analyst|approver|viewer [--totp] [--password-stdin] [--json]
                                            the password is read from stdin (--password-stdin) or prompted for, never an argument;
                                            --totp prints an otpauth:// URI for the authenticator app, once
  operators list [--account ID] [--json]
  operators disable ID [--json]             the operator can no longer sign in; their console sessions end at once
  audit verify [--checkpoint FILE]… [--json]  seal pending audit rows, verify the whole keyed chain, and check it
                                            still holds each checkpoint's head (rows deleted from its end)
  audit checkpoint                          print a signed checkpoint of the chain's head (JSON) to keep outside the database
${LISTS_USAGE}
${TRAVEL_RULE_USAGE}
${WALLETS_USAGE}
${TRANSACTIONS_USAGE}
${REGISTRIES_USAGE}

The embedded database (no DATABASE_URL) belongs to one process: while the server runs, these
commands are sent to it over DATA_DIR/admin.sock; otherwise they open DATA_DIR directly.`;

class UsageError extends Error {}

/** What a command reads besides its arguments: the operator's password (stdin or a prompt, never argv). */
export interface CliInput {
  password?: string;
}

/** Runs one CLI command against a database. Returns the exit code. */
export async function runCommand(
  db: Db,
  argv: string[],
  io: CliIo,
  config: Config,
  input: CliInput = {},
  /** The server's resources when run over its admin socket; a command that needs one otherwise makes its own. */
  resources?: Resources,
): Promise<number> {
  const [group, action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      environment: { type: 'string' },
      scopes: { type: 'string' },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      format: { type: 'string' },
      preset: { type: 'string' },
      source: { type: 'string' },
      all: { type: 'boolean', default: false },
      checkpoint: { type: 'string', multiple: true },
      email: { type: 'string' },
      role: { type: 'string' },
      totp: { type: 'boolean', default: false },
      'password-stdin': { type: 'boolean', default: false },
      list: { type: 'string' },
      skip: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      delta: { type: 'boolean', default: false },
    },
  });
  const json = values.json === true;
  const emit = (obj: unknown, text: string) => io.out(json ? JSON.stringify(obj) : text);
  const rateLimit = values['rate-limit'] !== undefined ? Number(values['rate-limit']) : null;
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1))
    throw new UsageError('--rate-limit must be a positive integer (requests per minute)');

  try {
    switch (`${group ?? ''} ${action ?? ''}`.trim()) {
      case 'migrate': {
        const applied = await migrate(db);
        emit({ applied }, applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
        return 0;
      }
      case 'accounts create': {
        const a = await createAccount(db, { name: values.name ?? 'Account', rateLimitPerMinute: rateLimit });
        await seedDefaultJourneys(db, a.id);
        emit({ id: a.id, name: a.name, created_at: a.created_at }, `created account ${a.id} (${a.name})`);
        return 0;
      }
      case 'accounts list': {
        const rows = await listAccounts(db);
        if (json) io.out(JSON.stringify(rows));
        else for (const a of rows) io.out(`${a.id}  ${a.name}  created ${a.created_at.toISOString()}`);
        return 0;
      }
      case 'keys create': {
        if (!values.account) throw new UsageError('--account is required');
        if (values.environment !== 'sandbox' && values.environment !== 'production')
          throw new UsageError('--environment must be sandbox or production');
        if (!(await getAccount(db, values.account))) {
          io.err(`no account ${values.account}`);
          return 1;
        }
        const scopes = values.scopes ? parseScopes(values.scopes) : undefined;
        const { key, record } = await createApiKey(db, {
          accountId: values.account,
          environment: values.environment,
          scopes,
          name: values.name ?? null,
          rateLimitPerMinute: rateLimit,
        });
        if (!json) io.out('This key is shown once; store it now. Only its hash is kept.');
        emit(
          {
            id: record.id,
            key,
            account: record.account_id,
            environment: record.environment,
            scopes: record.scopes,
            rate_limit_per_minute: record.rate_limit_per_minute,
          },
          `${record.id}  ${record.environment}  ${key}\nscopes: ${record.scopes.join(',')}`,
        );
        return 0;
      }
      case 'keys list': {
        const rows = await listApiKeys(db, values.account);
        if (json)
          io.out(
            JSON.stringify(
              rows.map((k) => ({
                id: k.id,
                account: k.account_id,
                environment: k.environment,
                display: k.display,
                scopes: k.scopes,
                revoked_at: k.revoked_at,
                created_at: k.created_at,
              })),
            ),
          );
        else
          for (const k of rows)
            io.out(
              `${k.id}  ${k.account_id}  ${k.environment.padEnd(10)}  ${k.display}  ${k.revoked_at ? 'REVOKED' : 'active'}  ${k.scopes.join(',')}`,
            );
        return 0;
      }
      case 'keys revoke': {
        const id = positionals[0];
        if (!id) throw new UsageError('keys revoke needs the key id (key_…)');
        const k = await revokeApiKey(db, id);
        if (!k) {
          io.err(`no key ${id}`);
          return 1;
        }
        emit({ id: k.id, revoked_at: k.revoked_at }, `revoked ${k.id}`);
        return 0;
      }
      case 'operators create': {
        if (!values.account) throw new UsageError('--account is required');
        if (!values.email) throw new UsageError('--email is required');
        if (!values.role || !isRole(values.role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        if (input.password === undefined)
          throw new UsageError('no password: pipe it with --password-stdin or run in a terminal to be prompted');
        const { operator, otpauth } = await createOperator(db, new Sealer(config.masterKey), {
          accountId: values.account,
          email: values.email,
          password: input.password,
          role: values.role,
          totp: values.totp === true,
        });
        emit(
          { ...operator, otpauth },
          `created operator ${operator.id}  ${operator.email}  ${operator.role}  (account ${operator.account_id})` +
            (otpauth ? `\nTOTP: add this to the authenticator app now; it is shown once:\n${otpauth}` : ''),
        );
        return 0;
      }
      case 'operators list': {
        const rows = (await listOperators(db, values.account)).map(operatorView);
        if (json) io.out(JSON.stringify(rows));
        else
          for (const o of rows)
            io.out(
              `${o.id}  ${o.account_id}  ${o.email}  ${o.role}  ${o.totp ? 'totp' : 'password-only'}  ${o.disabled_at ? 'DISABLED' : 'active'}`,
            );
        return 0;
      }
      case 'operators disable': {
        const id = positionals[0];
        if (!id) throw new UsageError('operators disable needs the operator id (opr_…)');
        const o = await db.transaction((tx) => disableOperator(tx, id, new Date()));
        if (!o) {
          io.err(`no operator ${id}`);
          return 1;
        }
        emit({ id: o.id, disabled_at: o.disabled_at }, `disabled ${o.id} (${o.email}); their console sessions have ended`);
        return 0;
      }
      case 'audit verify': {
        while ((await sealAuditChain(db)) > 0);
        const v = await verifyAuditChain(db);
        const checkpoints: { file: string; problem: string | null }[] = [];
        for (const file of values.checkpoint ?? []) {
          let cp: AuditCheckpoint;
          try {
            cp = JSON.parse(readFileSync(file, 'utf8')) as AuditCheckpoint;
          } catch (err) {
            throw new UsageError(`cannot read checkpoint ${file}: ${(err as Error).message}`);
          }
          checkpoints.push({ file, problem: await checkAuditCheckpoint(db, cp) });
        }
        const ok = v.ok && checkpoints.every((c) => c.problem === null);
        const lines = [
          v.ok ? `audit chain intact: ${v.checked} rows verified` : `AUDIT CHAIN BROKEN at row ${v.firstBadSeq}: ${v.problem}`,
        ];
        for (const c of checkpoints) lines.push(c.problem ? `CHECKPOINT ${c.file}: ${c.problem}` : `checkpoint ${c.file}: holds`);
        emit({ ...v, ok, checkpoints }, lines.join('\n'));
        return ok ? 0 : 2;
      }
      case 'audit checkpoint': {
        const cp = await auditCheckpoint(db);
        io.out(JSON.stringify(cp));
        return 0;
      }
      case 'lists import':
      case 'lists list':
      case 'lists sync':
        return await runListsCommand(
          db,
          action!,
          { positionals, format: values.format, source: values.source, all: values.all === true, json, settings: config.checks.screening },
          io,
          resources,
        );
      case 'travel-rule import-counterparties': {
        const own = resources ? null : createResources(config, db);
        try {
          return await runTravelRuleCommand(
            db,
            config,
            (resources ?? own)!,
            action!,
            { positionals, account: values.account, environment: values.environment, json },
            io,
          );
        } finally {
          await own?.close();
        }
      }
      case 'wallets import-attributions':
      case 'wallets import-transfers':
        return await runWalletsCommand(
          db,
          action!,
          { positionals, account: values.account, environment: values.environment, list: values.list, skip: values.skip === true, json },
          io,
        );
      case 'transactions import': {
        const file = positionals[0];
        if (!file) throw new UsageError('transactions import needs a FILE');
        if (!values.account) throw new UsageError('--account is required');
        if (values.environment !== 'sandbox' && values.environment !== 'production')
          throw new UsageError('--environment must be sandbox or production');
        const format = values.format ?? (file.endsWith('.csv') ? 'csv' : 'jsonl');
        if (format !== 'csv' && format !== 'jsonl') throw new UsageError('--format must be csv or jsonl');
        const preset = values.preset ?? 'verity';
        if (preset !== 'verity' && preset !== 'amlsim') throw new UsageError('--preset must be verity or amlsim');
        if (!(await getAccount(db, values.account))) {
          io.err(`no account ${values.account}`);
          return 1;
        }
        return await runTransactionsImport(
          db,
          { file, account: values.account, environment: values.environment, format, preset, json },
          io,
        );
      }
      case 'registries import':
      case 'registries list':
        if (values.full && values.delta) throw new UsageError('--full and --delta exclude each other');
        return await runRegistriesCommand(
          db,
          action!,
          { positionals, format: values.format, json, ...(values.full ? { mode: 'full' } : values.delta ? { mode: 'delta' } : {}) },
          io,
        );
      default:
        io.err(USAGE);
        return group ? 64 : 0;
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof UsageProblem || (err instanceof Error && /unknown scope/.test(err.message))) {
      io.err(`error: ${err.message}`);
      return 64;
    }
    throw err;
  }
}
