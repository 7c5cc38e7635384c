// The console's sign-in page: plain ES module, no framework, no build step. It talks to
// /console/api (sign-in, session) and, for everything else, to the public /v1 API with the session
// cookie, the X-CSRF-Token header and the Verity-Environment header.

/** @typedef {{ operator: { id: string, email: string, role: string, account: string }, environment: 'sandbox' | 'production', scopes: string[], csrf_token: string, expires_at: string }} Me */

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {Me | null} */
let me = null;
/** @type {string | null} */
let challenge = null;

/** @param {'signin' | 'totp' | 'home'} name */
function show(name) {
  for (const s of ['signin', 'totp', 'home']) el(s).hidden = s !== name;
  el(name).querySelector('h1')?.focus();
}

/** @param {string} text */
function say(text) {
  el('message').textContent = text;
}

/**
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{ status: number, data: any }>}
 */
async function call(path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (me) {
    headers['x-csrf-token'] = me.csrf_token;
    headers['verity-environment'] = me.environment;
  }
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : null };
}

/** @param {Me} who */
function signedIn(who) {
  me = who;
  el('who').textContent = who.operator.email;
  el('role').textContent = who.operator.role;
  el('account').textContent = who.operator.account;
  el('environment-now').textContent = who.environment;
  const badge = el('env-badge');
  badge.hidden = false;
  badge.textContent = who.environment === 'production' ? 'PRODUCTION' : 'Sandbox';
  badge.className = `badge ${who.environment}`;
  el('switch-env').textContent = who.environment === 'production' ? 'Switch to sandbox' : 'Switch to production';
  say('');
  show('home');
}

/** @param {{ data: any }} r */
const problem = (r) => (r.data && r.data.error ? r.data.error.message : 'Something went wrong.');

el('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = /** @type {HTMLFormElement} */ (e.target);
  const f = new FormData(form);
  const r = await call('/console/api/login', {
    email: String(f.get('email') ?? ''),
    password: String(f.get('password') ?? ''),
    environment: String(f.get('environment') ?? 'sandbox'),
  });
  /** @type {HTMLInputElement} */ (el('password')).value = '';
  if (r.status !== 200) return say(problem(r));
  if (r.data.totp_required) {
    challenge = r.data.challenge;
    say('');
    return show('totp');
  }
  signedIn(r.data);
});

el('totp-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const code = /** @type {HTMLInputElement} */ (el('code'));
  const r = await call('/console/api/login/totp', { challenge, code: code.value.trim() });
  code.value = '';
  if (r.status !== 200) {
    say(problem(r));
    if (r.status === 401 && /start again/.test(problem(r))) show('signin');
    return;
  }
  signedIn(r.data);
});

el('switch-env').addEventListener('click', async () => {
  if (!me) return;
  const to = me.environment === 'production' ? 'sandbox' : 'production';
  const r = await call('/console/api/environment', { environment: to });
  if (r.status !== 200) return say(problem(r));
  signedIn(r.data);
});

el('signout').addEventListener('click', async () => {
  await call('/console/api/logout', {});
  me = null;
  el('env-badge').hidden = true;
  say('Signed out.');
  show('signin');
});

const r = await call('/console/api/me');
if (r.status === 200) signedIn(r.data);
else show('signin');

export {};
