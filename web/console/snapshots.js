// Screening lists (GET /v1/checks/screening/list-snapshots): which version of each list screening runs
// against (source, version, entity count, last update), and each source's history of imports, syncs and
// failures with the active snapshot marked. Read-only: lists are imported by the operator's CLI.
import { get, problem } from './api.js';
import { ago, filterSelect, h, label, mount, table, when } from './dom.js';

const PATH = '/v1/checks/screening/list-snapshots';

/** A content hash is long: its first 12 characters tell versions apart on screen (the full one is its title). */
const version = (/** @type {string | null} */ v) => (v ? h('code', { title: v }, v.slice(0, 12)) : '—');

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderSnapshots(root, say) {
  const active = await get(`${PATH}?state=active&limit=100`);
  if (active.status !== 200) return mount(root, h('h1', { tabindex: '-1' }, 'Screening lists'), h('p', null, problem(active)));
  /** @type {any[]} */
  const current = active.data.data;
  /** @type {Record<string, string>} */
  const state = { source: '' };
  const history = h('div', { id: 'snapshot-history' });

  /** @param {string | null} [cursor] */
  const load = async (cursor) => {
    const q = new URLSearchParams({ limit: '50' });
    if (state.source) q.set('source', state.source);
    if (cursor) q.set('cursor', cursor);
    const r = await get(`${PATH}?${q}`);
    if (r.status !== 200) return say(problem(r));
    mount(
      history,
      table(
        `${state.source ? `History of ${state.source}` : 'All imports and syncs'}, newest first`,
        ['Source', 'State', 'Version', 'Entities', 'Origin', 'Imported', 'Superseded', 'Error'],
        r.data.data.map((/** @type {any} */ s) => [
          s.source,
          h('span', { class: `state ${s.state}` }, s.active ? 'active (screened)' : label(s.state)),
          version(s.version),
          s.entity_count.toLocaleString(),
          s.origin,
          when(s.imported_at),
          s.superseded_at ? when(s.superseded_at) : '—',
          s.error ?? '',
        ]),
      ),
      r.data.next_cursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(r.data.next_cursor) }, 'Next page') : null,
    );
  };

  const total = current.reduce((n, s) => n + s.entity_count, 0);
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Screening lists'),
    h(
      'p',
      { id: 'snapshots-summary' },
      `${current.length} active ${current.length === 1 ? 'list' : 'lists'} · ${total.toLocaleString()} entities screened against`,
    ),
    table(
      'Active list per source (screening runs against these)',
      ['Source', 'Version', 'Entities', 'Format', 'Last update', 'Age'],
      current.map((/** @type {any} */ s) => [
        h('strong', null, s.source),
        version(s.version),
        s.entity_count.toLocaleString(),
        s.format ?? s.origin,
        when(s.imported_at),
        ago(s.imported_at),
      ]),
    ),
    h(
      'form',
      { class: 'filters', 'aria-label': 'History filter', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      filterSelect(
        state,
        'source',
        'Source',
        [['', 'All sources'], ...current.map((/** @type {any} */ s) => /** @type {const} */ ([s.source, s.source]))],
        () => void load(),
      ),
    ),
    history,
  );
  await load();
}
