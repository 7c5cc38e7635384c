// The console's shell: sign-in (password, then TOTP when the operator has it), the signed-in frame
// (navigation, environment badge and switch, sign-out) and a hash router over the views. Plain ES
// modules served from web/console/ with no build step (docs/architecture.md). Every view reads and
// acts through the public /v1 API as the operator (api.js); the server enforces the role.
import { call, problem, session } from './api.js';
import { renderBusiness, renderBusinessLookup } from './businesses.js';
import { renderAudit, renderCase } from './cases.js';
import { renderDashboard, renderUsage } from './dashboard.js';
import { renderJourney, renderJourneys } from './journeys.js';
import { renderKeys } from './keys.js';
import { renderLists, renderMonitoring } from './lists.js';
import { renderQueue } from './queue.js';
import { renderRecord } from './records.js';
import { renderRules } from './rules.js';
import { renderSession } from './session.js';
import { renderSnapshots } from './snapshots.js';
import { renderWebhooks } from './webhooks.js';

/** @typedef {import('./api.js').Me} Me */

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @type {string | null} */
let challenge = null;

/** @param {'signin' | 'totp' | 'home'} name */
function show(name) {
  for (const s of ['signin', 'totp', 'home']) el(s).hidden = s !== name;
  const signedIn = name === 'home';
  el('nav').hidden = !signedIn;
  el('operator').hidden = !signedIn;
  if (name !== 'home') el(name).querySelector('h1')?.focus();
}

/** @param {string} text */
function say(text) {
  el('message').textContent = text;
}

/** @param {Me} who */
function signedIn(who) {
  session.me = who;
  el('who').textContent = who.operator.email;
  el('role').textContent = who.operator.role;
  el('account').textContent = who.operator.account;
  el('environment-now').textContent = who.environment;
  const badge = el('env-badge');
  badge.hidden = false;
  badge.textContent = who.environment === 'production' ? 'PRODUCTION' : 'Sandbox';
  badge.className = `badge ${who.environment}`;
  document.body.dataset.environment = who.environment;
  el('switch-env').textContent = who.environment === 'production' ? 'Switch to sandbox' : 'Switch to production';
  say('');
  show('home');
  void route();
}

function signedOut(text = '') {
  session.me = null;
  el('env-badge').hidden = true;
  delete document.body.dataset.environment;
  el('view').replaceChildren();
  say(text);
  show('signin');
}
session.onSignedOut = () => signedOut('Your session ended; sign in again.');

/** Renders the view the location's hash names: #/queue (default), #/sessions/<id>, #/cases/<id>, #/audit, #/dashboard, #/journeys[/<key>], #/rules, #/lists, #/snapshots, #/businesses[/<id>], #/monitoring, #/webhooks, #/usage, #/transactions/<id>, #/wallets/<wmon_…>. */
async function route() {
  if (!session.me) return;
  // Each visit renders into a fresh container: a view still loading when the person moves on (a
  // session's checks, a dashboard's counts) then fills a detached element instead of the new view.
  const view = document.createElement('div');
  el('view').replaceChildren(view);
  const [, what, id] = (location.hash || '#/queue').slice(1).split('/');
  for (const a of el('nav').querySelectorAll('a')) {
    if (a.getAttribute('href') === `#/${what}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (what === 'sessions' && id) await renderSession(view, decodeURIComponent(id), say);
  else if (what === 'cases' && id) await renderCase(view, decodeURIComponent(id), say);
  else if (what === 'audit') await renderAudit(view, say);
  else if ((what === 'transactions' || what === 'wallets') && id) await renderRecord(view, what, decodeURIComponent(id), say);
  else if (what === 'journeys' && id) await renderJourney(view, decodeURIComponent(id), say);
  else if (what === 'journeys') await renderJourneys(view, say);
  else if (what === 'rules') await renderRules(view, say);
  else if (what === 'lists') await renderLists(view, say);
  else if (what === 'snapshots') await renderSnapshots(view, say);
  else if (what === 'businesses' && id) await renderBusiness(view, decodeURIComponent(id), say);
  else if (what === 'businesses') renderBusinessLookup(view);
  else if (what === 'monitoring') await renderMonitoring(view, say);
  else if (what === 'webhooks') await renderWebhooks(view, say);
  else if (what === 'usage') await renderUsage(view, say);
  else if (what === 'keys') await renderKeys(view, say);
  else if (what === 'dashboard') await renderDashboard(view, say);
  else await renderQueue(view, say);
  view.querySelector('h1')?.focus();
}
window.addEventListener('hashchange', () => {
  say('');
  void route();
});

el('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = /** @type {HTMLFormElement} */ (e.target);
  const f = new FormData(form);
  const r = await call('POST', '/console/api/login', {
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
  const r = await call('POST', '/console/api/login/totp', { challenge, code: code.value.trim() });
  code.value = '';
  if (r.status !== 200) {
    say(problem(r));
    if (r.status === 401 && /start again/.test(problem(r))) show('signin');
    return;
  }
  signedIn(r.data);
});

el('switch-env').addEventListener('click', async () => {
  const me = session.me;
  if (!me) return;
  const to = me.environment === 'production' ? 'sandbox' : 'production';
  // Production is switched to on purpose: a person confirms, so sandbox habits never act on real data.
  if (to === 'production' && !window.confirm('Switch to PRODUCTION? Actions will affect real customers.')) return;
  const r = await call('POST', '/console/api/environment', { environment: to });
  if (r.status !== 200) return say(problem(r));
  location.hash = '#/queue';
  signedIn(r.data);
});

el('signout').addEventListener('click', async () => {
  await call('POST', '/console/api/logout', {});
  signedOut('Signed out.');
});

const r = await call('GET', '/console/api/me');
if (r.status === 200) signedIn(r.data);
else show('signin');

export {};
