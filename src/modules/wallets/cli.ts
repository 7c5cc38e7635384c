import { readFileSync } from 'node:fs';
import type { Db } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { importAttributions, importTransfers } from './imports.js';

export const WALLETS_USAGE = `  wallets import-attributions FILE --account ID --environment sandbox|production --list NAME [--skip] [--json]
                                            add attribution entries (CSV with header or JSON lines) to a tenant's list
  wallets import-transfers FILE --account ID --environment sandbox|production [--skip] [--json]
                                            add known transfers to a tenant's exposure graph`;

export interface WalletsCliArgs {
  positionals: string[];
  account?: string;
  environment?: string;
  list?: string;
  skip: boolean;
  json: boolean;
}

/** `verity wallets import-attributions|import-transfers`: the import endpoints' verbs, as the operator. */
export async function runWalletsCommand(
  db: Db,
  action: string,
  a: WalletsCliArgs,
  io: { out: (l: string) => void; err: (l: string) => void },
): Promise<number> {
  const file = a.positionals[0];
  if (!file || !a.account || (a.environment !== 'sandbox' && a.environment !== 'production')) {
    io.err(`usage:\n${WALLETS_USAGE}`);
    return 64;
  }
  const ctx: RequestContext = {
    db,
    accountId: a.account,
    environment: a.environment,
    actor: { type: 'operator', id: 'cli' },
    scopes: ['*'],
    requestId: `cli:wallets.${action}`,
  };
  if (action === 'import-attributions' && !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(a.list ?? '')) {
    io.err('error: --list must be 1 to 64 characters of a-z, 0-9, _ and - (starting with a letter or digit)');
    return 64;
  }
  const content = readFileSync(file, 'utf8');
  const onError = a.skip ? ('skip' as const) : ('reject' as const);
  try {
    const r =
      action === 'import-attributions'
        ? await importAttributions(ctx, { list: a.list ?? '', content, on_error: onError }, null)
        : await importTransfers(ctx, { content, on_error: onError }, null);
    if (a.json) io.out(JSON.stringify(r));
    else {
      io.out(`${r.id}: ${r.lines} lines, ${r.imported} imported, ${r.rejected} rejected`);
      for (const e of r.errors) io.err(`  line ${e.line}: ${e.message}`);
    }
    return 0;
  } catch (e) {
    if (e instanceof AppError) {
      io.err(`error: ${e.message}`);
      return 65;
    }
    throw e;
  }
}
