import type { FastifyRequest } from 'fastify';
import type { ConsoleGate } from '../../platform/http/auth-plugin.js';
import type { ConsoleAuth, Principal } from './service.js';

export const CSRF_HEADER = 'x-csrf-token';
export const ENVIRONMENT_HEADER = 'verity-environment';

/** __Host- binds the cookie to this exact origin (Secure, Path=/, no Domain); plain HTTP on loopback cannot use it. */
export const cookieName = (secure: boolean) => (secure ? '__Host-verity_console' : 'verity_console');

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim() || null;
  }
  return null;
}

/**
 * A cross-site request is one whose Origin (sent by every browser on non-GET fetches and on
 * cross-origin GETs) is neither PUBLIC_BASE_URL's origin nor the Host it was sent to. Without an
 * Origin header (same-origin GET, non-browser client) the CSRF token alone decides.
 */
export function crossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (origin === publicOrigin) return false;
  const host = request.headers.host;
  return !(host && (origin === `http://${host}` || origin === `https://${host}`));
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** Authenticates a console request: cookie → session, same origin, CSRF token, environment. */
export async function principalOf(
  auth: ConsoleAuth,
  request: FastifyRequest,
  publicOrigin: string,
  opts: { csrf: boolean } = { csrf: true },
): Promise<
  | { ok: true; principal: Principal; csrf: string }
  | { ok: false; code: 'unauthenticated' | 'conflict' | 'invalid_request'; message: string; field: string | null }
> {
  const token = readCookie(request.headers.cookie, cookieName(auth.settings.cookieSecure));
  if (!token) return { ok: false, code: 'unauthenticated', message: 'Not signed in to the console.', field: null };
  if (crossSite(request, publicOrigin))
    return {
      ok: false,
      code: 'unauthenticated',
      message: 'Cross-site requests are refused: the Origin is not this service.',
      field: 'Origin',
    };
  const found = await auth.authenticate(token);
  if ('problem' in found) return { ok: false, code: 'unauthenticated', message: found.problem, field: null };
  if (opts.csrf && !auth.checkCsrf(found.principal, header(request, CSRF_HEADER)))
    return {
      ok: false,
      code: 'unauthenticated',
      message: "A console request must send the session's CSRF token in X-CSRF-Token (from sign-in or GET /console/api/me).",
      field: 'X-CSRF-Token',
    };
  return { ok: true, principal: found.principal, csrf: found.csrf };
}

export function consoleGate(auth: ConsoleAuth, publicBaseUrl: string): ConsoleGate {
  const name = cookieName(auth.settings.cookieSecure);
  const publicOrigin = new URL(publicBaseUrl).origin;
  return {
    applies: (request) => request.headers.authorization === undefined && readCookie(request.headers.cookie, name) !== null,
    async resolve(request) {
      const who = await principalOf(auth, request, publicOrigin);
      if (!who.ok) return who;
      const env = header(request, ENVIRONMENT_HEADER);
      const session = who.principal.session;
      // The environment is the session's; every call also names it, so a tab left on the other
      // environment (after a switch elsewhere) is refused instead of acting on the wrong data.
      if (env === undefined)
        return {
          ok: false,
          code: 'invalid_request',
          message: `Send Verity-Environment: ${session.environment} (the console session's environment).`,
          field: 'Verity-Environment',
        };
      if (env !== session.environment)
        return {
          ok: false,
          code: 'conflict',
          message: `This console session is signed in to ${session.environment}, not ${env}; switch environment in the console.`,
          field: 'Verity-Environment',
        };
      return {
        ok: true,
        accountId: session.account_id,
        environment: session.environment,
        actor: { type: 'operator', id: who.principal.operator.id },
        scopes: who.principal.scopes,
        rateKey: `operator:${who.principal.operator.id}`,
      };
    },
  };
}
