// Records a case links to that have no screen of their own: a transaction (GET /v1/transactions/{id}) and
// a monitored wallet (GET /v1/wallets/monitors/{id}), shown field by field, read-only.
import { get, problem } from './api.js';
import { h, label, mount } from './dom.js';

/** @param {unknown} v */
const show = (v) =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? h('pre', { class: 'json' }, JSON.stringify(v, null, 2)) : String(v);

/**
 * @param {HTMLElement} root
 * @param {'transactions' | 'wallets'} what
 * @param {string} id
 * @param {(text: string) => void} say
 */
export async function renderRecord(root, what, id, say) {
  const title = what === 'transactions' ? `Transaction ${id}` : `Wallet ${id}`;
  const r = await get(
    what === 'transactions' ? `/v1/transactions/${encodeURIComponent(id)}` : `/v1/wallets/monitors/${encodeURIComponent(id)}`,
  );
  if (r.status !== 200) {
    say(problem(r));
    return mount(root, h('h1', { tabindex: '-1' }, title), h('p', null, problem(r)));
  }
  mount(
    root,
    h('h1', { tabindex: '-1' }, title),
    h(
      'dl',
      { class: 'summary', id: 'record' },
      Object.entries(r.data)
        .filter(([k]) => k !== 'object' && k !== 'id')
        .map(([k, v]) => [h('dt', null, label(k)), h('dd', null, show(v))]),
    ),
  );
}
