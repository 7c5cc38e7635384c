import { readFileSync } from 'node:fs';
import type { Db } from '../../platform/db.js';
import type { Config } from '../../config.js';
import { Sealer } from '../../platform/crypto.js';
import { systemContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { importCounterparties } from './counterparties.js';
import type { Resources } from '../../platform/resources.js';
import { SCREENING_INDEX } from '../checks/index.js';

export const TRAVEL_RULE_USAGE = `  travel-rule import-counterparties --account ID --environment sandbox|production FILE [--json]
                                            import VASPs (a JSON array of POST /v1/travel-rule/counterparties bodies);
                                            an entry whose LEI exists updates it; every legal name is screened`;

/** `verity travel-rule import-counterparties …`: the directory from a JSON file (a GDS export reshaped, a manual list). */
export async function runTravelRuleCommand(
  db: Db,
  config: Config,
  resources: Resources,
  action: string,
  o: { positionals: string[]; account?: string; environment?: string; json: boolean },
  io: { out(l: string): void; err(l: string): void },
): Promise<number> {
  if (
    action !== 'import-counterparties' ||
    !o.account ||
    (o.environment !== 'sandbox' && o.environment !== 'production') ||
    o.positionals.length !== 1
  ) {
    io.err(`usage:\n${TRAVEL_RULE_USAGE}`);
    return 64;
  }
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(o.positionals[0]!, 'utf8'));
  } catch (err) {
    io.err(`error: cannot read ${o.positionals[0]}: ${(err as Error).message}`);
    return 65;
  }
  if (!Array.isArray(entries)) {
    io.err('error: the file must hold a JSON array of counterparties');
    return 65;
  }
  const ctx = { ...systemContext(db, o.account, o.environment, 'cli'), actor: { type: 'operator' as const, id: 'cli' } };
  const production = { requireHttps: config.webhooks.requireHttps, allowPrivateNetworks: config.webhooks.allowPrivateNetworks };
  try {
    const r = await importCounterparties(
      ctx,
      { sealer: new Sealer(config.masterKey), production, cache: resources.get(SCREENING_INDEX) },
      entries,
    );
    io.out(o.json ? JSON.stringify(r) : `imported ${entries.length} counterparties: ${r.created} created, ${r.updated} updated`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`error: ${err.field ? `${err.field}: ` : ''}${err.message} (nothing was imported from that entry on)`);
      return 65;
    }
    throw err;
  }
}
