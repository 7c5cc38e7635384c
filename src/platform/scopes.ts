/**
 * Scope names: one read and one write scope per module. A key holds a list of scopes;
 * `*` stands for all of them. Sandbox keys are minted with every scope by default (spec: "sandbox keys include every module").
 */
export const MODULES = [
  'verifications',
  'checks',
  'businesses',
  'screening',
  'transactions',
  'wallets',
  'travel_rule',
  'journeys',
  'rules',
  'cases',
  'lists',
  'audit',
  'webhooks',
  'usage',
  // The API keys of the caller's own account and environment (/v1/api-keys); operators: admin only.
  'api_keys',
] as const;
export type Module = (typeof MODULES)[number];
/**
 * Scopes beyond read and write. `rules:publish` is the checker's: publishing a rule set (maker-checker)
 * needs it, and `rules:write` (the maker's) does not grant it. It implies `rules:read` (the checker reads
 * the draft and the diff), nothing else.
 */
export const EXTRA_SCOPES = ['rules:publish'] as const;
export type Scope = `${Module}:read` | `${Module}:write` | (typeof EXTRA_SCOPES)[number];

export const ALL_SCOPES: Scope[] = [...MODULES.flatMap((m) => [`${m}:read`, `${m}:write`] as Scope[]), ...EXTRA_SCOPES];

export function isScope(s: string): s is Scope {
  return (ALL_SCOPES as string[]).includes(s);
}

/** A write scope (or an extra scope such as rules:publish) implies the read scope of the same module. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes('*') || granted.includes(needed)) return true;
  if (needed.endsWith(':read')) {
    const module = needed.slice(0, -':read'.length);
    return granted.includes(`${module}:write`) || EXTRA_SCOPES.some((x) => x.startsWith(`${module}:`) && granted.includes(x));
  }
  return false;
}

/** Parses a comma-separated scope list from the CLI; throws with the unknown names. */
export function parseScopes(raw: string): string[] {
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => s !== '*' && !isScope(s));
  if (unknown.length > 0) throw new Error(`unknown scope(s): ${unknown.join(', ')}; known: *, ${ALL_SCOPES.join(', ')}`);
  return list;
}

/**
 * Publishing a journey or a rule set (maker-checker). Rule sets: the publish route itself needs the
 * `rules:publish` scope (EXTRA_SCOPES), for API keys and operators alike. Journeys: an API key's
 * `journeys:write` includes publishing (the integration is one principal); a console operator also
 * needs the role permission `journeys:publish`, which only the approver and admin roles hold
 * (src/modules/console/policy.ts), so an analyst drafts and cannot publish.
 */
export type PublishScope = 'journeys:publish' | 'rules:publish';
export function mayPublish(ctx: { actor: { type: string }; scopes: readonly string[] }, scope: PublishScope): boolean {
  if (ctx.actor.type !== 'operator') return true;
  return ctx.scopes.includes('*') || ctx.scopes.includes(scope);
}
