import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { emitAudit } from '../../platform/audit.js';
import { invalid } from '../../platform/errors.js';
import { withTransaction } from '../../platform/transaction.js';
import { isValidLei, makeTravelAddress, TravelAddressError } from '../../engines/travel-rule/index.js';
import { addressActions } from './address-screening.js';
import { openSecret, sealSecret, settingsRows, sha256, type SettingsRow } from './repository.js';
import type { UpdateSettings } from './schemas.js';

export function toSettings(row: SettingsRow | null, sealer: Sealer, publicBaseUrl: string) {
  const secret = row?.inbound_trp_enabled ? openSecret(sealer, row) : null;
  const url = secret ? `${publicBaseUrl.replace(/\/+$/, '')}/trp/${secret}/transfers` : null;
  let travelAddress: string | null = null;
  try {
    travelAddress = url ? makeTravelAddress(url) : null;
  } catch (err) {
    if (!(err instanceof TravelAddressError)) throw err; // a base URL without a top-level domain has none
  }
  return {
    object: 'travel_rule_settings' as const,
    inbound_trp_enabled: row?.inbound_trp_enabled ?? false,
    inbound_trp_url: url,
    travel_address: travelAddress,
    vasp_name: row?.vasp_name ?? null,
    vasp_lei: row?.vasp_lei ?? null,
    address_risk_actions: addressActions(row),
  };
}

/** PATCH /v1/travel-rule/settings: turns this environment's TRP receiver on or off, rotates its path secret. */
export async function updateSettings({
  ctx,
  sealer,
  publicBaseUrl,
  input,
}: {
  ctx: RequestContext;
  sealer: Sealer;
  publicBaseUrl: string;
  input: UpdateSettings;
}) {
  if (input.vasp_lei !== undefined && !isValidLei(input.vasp_lei))
    throw invalid('vasp_lei', 'The LEI check digits (ISO 17442, mod 97) do not match.');
  return withTransaction(ctx, async (tx) => {
    const before = await settingsRows.get(tx, ctx);
    const enabled = input.inbound_trp_enabled ?? before?.inbound_trp_enabled ?? false;
    let hash = before?.inbound_secret_hash ?? null;
    let sealed = before?.inbound_secret_sealed ?? null;
    if (enabled && (!hash || input.rotate_inbound_secret)) {
      const secret = randomBytes(24).toString('base64url');
      hash = sha256(secret);
      sealed = sealSecret(sealer, secret);
    }
    const row = await settingsRows.upsert(tx, ctx, {
      inbound_trp_enabled: enabled,
      inbound_secret_hash: hash,
      inbound_secret_sealed: sealed,
      vasp_name: input.vasp_name ?? before?.vasp_name ?? null,
      vasp_lei: input.vasp_lei ?? before?.vasp_lei ?? null,
      address_risk_actions: input.address_risk_actions
        ? { ...(before?.address_risk_actions ?? {}), ...input.address_risk_actions }
        : (before?.address_risk_actions ?? null),
    });
    await emitAudit(tx, ctx, {
      action: 'travel_rule.settings.updated',
      resourceType: 'travel_rule_settings',
      resourceId: ctx.environment,
      diff: {
        inbound_trp_enabled: { before: before?.inbound_trp_enabled ?? false, after: enabled },
        ...(input.rotate_inbound_secret ? { inbound_secret: { before: 'rotated', after: 'rotated' } } : {}),
        ...(input.address_risk_actions ? { address_risk_actions: { before: addressActions(before), after: addressActions(row) } } : {}),
      },
    });
    return toSettings(row, sealer, publicBaseUrl);
  });
}
