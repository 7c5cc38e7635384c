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
] as const;
export type Module = (typeof MODULES)[number];
export type Scope = `${Module}:read` | `${Module}:write`;

export const ALL_SCOPES: Scope[] = MODULES.flatMap((m) => [`${m}:read`, `${m}:write`] as Scope[]);

export function isScope(s: string): s is Scope {
  return (ALL_SCOPES as string[]).includes(s);
}

/** A write scope implies the read scope of the same module. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes('*') || granted.includes(needed)) return true;
  if (needed.endsWith(':read')) return granted.includes(needed.replace(/:read$/, ':write'));
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
 * Publishing a journey or a rule set (maker-checker). An API key's write scope includes publishing
 * (the integration is one principal); a console operator also needs `<module>:publish`, which only
 * the approver and admin roles hold (src/modules/console/policy.ts), so an analyst drafts and cannot publish.
 */
export type PublishScope = 'journeys:publish' | 'rules:publish';
export function mayPublish(ctx: { actor: { type: string }; scopes: readonly string[] }, scope: PublishScope): boolean {
  if (ctx.actor.type !== 'operator') return true;
  return ctx.scopes.includes('*') || ctx.scopes.includes(scope);
}
