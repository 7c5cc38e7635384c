// The console's client: /console/api for the session, the public /v1 API for everything else, as the
// signed-in operator (session cookie, X-CSRF-Token, Verity-Environment). No private back door: what
// a role may do is decided by the server on every call; the views only hide what it would refuse.

/** @typedef {{ operator: { id: string, email: string, role: string, account: string }, environment: 'sandbox' | 'production', scopes: string[], csrf_token: string, expires_at: string, review_sla_hours: number }} Me */

export const session = {
  /** @type {Me | null} */
  me: null,
  /** Called when the server says the session ended (expired, revoked). @type {() => void} */
  onSignedOut: () => {},
};

/** @returns {Record<string, string>} */
function headers() {
  const me = session.me;
  return me ? { 'x-csrf-token': me.csrf_token, 'verity-environment': me.environment } : {};
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{ status: number, data: any }>}
 */
export async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const h = { accept: 'application/json', ...headers() };
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers: h,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (res.status === 401 && path.startsWith('/v1') && session.me) session.onSignedOut();
  return { status: res.status, data };
}

/** @param {string} path */
export const get = (path) => call('GET', path);

/**
 * Bytes from /v1 (images, the evidence zip, the PDF report) as an object URL.
 * @param {string} path
 * @returns {Promise<string | null>}
 */
export async function blobUrl(path) {
  const res = await fetch(path, { headers: headers(), credentials: 'same-origin' });
  if (!res.ok) return null;
  return URL.createObjectURL(await res.blob());
}

/** @param {{ data: any }} r */
export const problem = (r) => (r.data && r.data.error ? r.data.error.message : 'Something went wrong.');

/**
 * Whether the signed-in role holds a scope (the server's rule: `*`, or write implies read).
 * @param {string} scope
 */
export function can(scope) {
  const scopes = session.me?.scopes ?? [];
  if (scopes.includes('*') || scopes.includes(scope)) return true;
  return scope.endsWith(':read') && scopes.includes(scope.replace(/:read$/, ':write'));
}

/** The owner string the server writes when this operator claims a case. */
export const self = () => `operator:${session.me?.operator.id ?? ''}`;

/** @param {{ type: string, id: string } | string | null} who */
export function actorName(who) {
  if (!who) return '';
  const s = typeof who === 'string' ? who : `${who.type}:${who.id}`;
  return s === self() ? `${session.me?.operator.email} (you)` : s;
}
