// Allow and block lists (entries with reasons: search, add, remove) and monitoring subjects (enrol,
// search by reference, remove), through /v1/lists and /v1/monitoring.
import { actorName, call, can, get, problem } from './api.js';
import { filterSelect, h, label, mount, table, when } from './dom.js';

const KINDS = ['name', 'screening_entity', 'subject', 'email', 'phone', 'document_number', 'wallet_address', 'ip_address'];

/** @type {{ list: string, kind: string, q: string }} */
const state = { list: 'blocklist', kind: '', q: '' };

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderLists(root, say) {
  const out = h('div', { id: 'list-entries', 'aria-live': 'polite' });
  /** @param {string | null} cursor */
  const load = async (cursor = null) => {
    const q = new URLSearchParams({ limit: '100' });
    if (state.kind) q.set('kind', state.kind);
    if (cursor) q.set('cursor', cursor);
    const r = await get(`/v1/lists/${state.list}/entries?${q}`);
    if (r.status !== 200) return say(problem(r));
    // The API filters by kind; the text search looks through the page it returned (value, normalised value, reason).
    const needle = state.q.trim().toLowerCase();
    const rows = r.data.data.filter(
      (/** @type {any} */ e) =>
        !needle || [e.value, e.normalized_value, e.reason, e.subject_reference ?? ''].some((s) => s.toLowerCase().includes(needle)),
    );
    mount(
      out,
      table(
        `${rows.length} entr${rows.length === 1 ? 'y' : 'ies'} on the ${state.list}`,
        ['Kind', 'Value', 'Subject', 'Reason', 'By', 'Added', 'Action'],
        rows.map((/** @type {any} */ e) => [
          label(e.kind),
          e.value,
          e.subject_reference ?? '—',
          e.reason,
          actorName(e.created_by),
          when(e.created_at),
          can('lists:write')
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  onclick: async () => {
                    const d = await call('DELETE', `/v1/lists/${state.list}/entries/${encodeURIComponent(e.id)}`);
                    if (d.status !== 200) return say(problem(d));
                    say(`Removed ${e.value}.`);
                    void load();
                  },
                },
                `Remove ${e.value}`,
              )
            : '',
        ]),
      ),
      r.data.next_cursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(r.data.next_cursor) }, 'Next page') : null,
    );
  };
  /** @param {string} name @param {string} text @param {[string, string][]} options */
  const select = (name, text, options) => filterSelect(/** @type {any} */ (state), name, text, options, () => void load());
  const add = can('lists:write')
    ? h(
        'form',
        {
          id: 'list-add',
          'aria-label': 'Add an entry',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const form = /** @type {HTMLFormElement} */ (e.target);
            const f = new FormData(form);
            const r = await call('POST', `/v1/lists/${state.list}/entries`, {
              kind: String(f.get('kind')),
              value: String(f.get('value') ?? ''),
              reason: String(f.get('reason') ?? ''),
            });
            if (r.status !== 201 && r.status !== 200) return say(problem(r));
            form.reset();
            say(`Added ${r.data.value} to the ${state.list}.`);
            void load();
          },
        },
        h('h2', null, 'Add an entry'),
        h('label', { for: 'entry-kind' }, 'Kind'),
        h(
          'select',
          { id: 'entry-kind', name: 'kind' },
          KINDS.map((k) => h('option', { value: k }, label(k))),
        ),
        h('label', { for: 'entry-value' }, 'Value'),
        h('input', { id: 'entry-value', name: 'value', required: true }),
        h('label', { for: 'entry-reason' }, 'Reason'),
        h('input', { id: 'entry-reason', name: 'reason', required: true }),
        h('button', { type: 'submit' }, 'Add entry'),
      )
    : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Lists'),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Filters', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      select('list', 'List', [
        ['blocklist', 'Blocklist'],
        ['allowlist', 'Allowlist'],
      ]),
      select('kind', 'Kind', [['', 'All kinds'], ...KINDS.map((k) => /** @type {[string, string]} */ ([k, label(k)]))]),
      h(
        'label',
        null,
        'Search',
        h('input', {
          type: 'search',
          name: 'q',
          value: state.q,
          oninput: (/** @type {Event} */ e) => {
            state.q = /** @type {HTMLInputElement} */ (e.target).value;
            void load();
          },
        }),
      ),
    ),
    out,
    add,
  );
  await load();
}

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderMonitoring(root, say) {
  const out = h('div', { id: 'subjects', 'aria-live': 'polite' });
  let reference = '';
  /** @param {string | null} cursor */
  const load = async (cursor = null) => {
    const q = new URLSearchParams({ limit: '100' });
    if (reference.trim()) q.set('subject_reference', reference.trim());
    if (cursor) q.set('cursor', cursor);
    const [r, alerts] = await Promise.all([get(`/v1/monitoring/subjects?${q}`), get('/v1/monitoring/alerts?limit=25')]);
    if (r.status !== 200) return say(problem(r));
    mount(
      out,
      table(
        `${r.data.data.length} monitored subject${r.data.data.length === 1 ? '' : 's'}`,
        ['Reference', 'Name', 'Born', 'Countries', 'Enrolled', 'Action'],
        r.data.data.map((/** @type {any} */ s) => [
          s.subject_reference,
          s.name,
          s.date_of_birth ?? '—',
          s.countries.join(', ') || '—',
          when(s.created_at),
          can('screening:write')
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  onclick: async () => {
                    const d = await call('DELETE', `/v1/monitoring/subjects/${encodeURIComponent(s.id)}`);
                    if (d.status !== 200 && d.status !== 204) return say(problem(d));
                    say(`Stopped monitoring ${s.subject_reference}.`);
                    void load();
                  },
                },
                `Stop monitoring ${s.subject_reference}`,
              )
            : '',
        ]),
      ),
      r.data.next_cursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(r.data.next_cursor) }, 'Next page') : null,
      alerts.status === 200
        ? table(
            'Recent monitoring alerts',
            ['Alert', 'Subject', 'Created'],
            alerts.data.data.map((/** @type {any} */ a) => [a.id, a.subject_reference ?? '—', when(a.created_at)]),
          )
        : null,
    );
  };
  const enrol = can('screening:write')
    ? h(
        'form',
        {
          id: 'enrol',
          'aria-label': 'Enrol a subject',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const form = /** @type {HTMLFormElement} */ (e.target);
            const f = new FormData(form);
            const dob = String(f.get('date_of_birth') ?? '').trim();
            const country = String(f.get('country') ?? '').trim();
            const r = await call('POST', '/v1/monitoring/subjects', {
              subject_reference: String(f.get('subject_reference') ?? ''),
              name: String(f.get('name') ?? ''),
              ...(dob ? { date_of_birth: dob } : {}),
              ...(country ? { country } : {}),
            });
            if (r.status !== 201 && r.status !== 200) return say(problem(r));
            form.reset();
            say(`Monitoring ${r.data.subject_reference}.`);
            void load();
          },
        },
        h('h2', null, 'Enrol a subject'),
        h('label', { for: 'm-ref' }, 'Subject reference'),
        h('input', { id: 'm-ref', name: 'subject_reference', required: true }),
        h('label', { for: 'm-name' }, 'Full name'),
        h('input', { id: 'm-name', name: 'name', required: true }),
        h('label', { for: 'm-dob' }, 'Date of birth (YYYY-MM-DD, optional)'),
        h('input', { id: 'm-dob', name: 'date_of_birth' }),
        h('label', { for: 'm-country' }, 'Country (optional)'),
        h('input', { id: 'm-country', name: 'country' }),
        h('button', { type: 'submit' }, 'Enrol'),
      )
    : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Monitoring'),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Search', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      h(
        'label',
        null,
        'Subject reference',
        h('input', {
          type: 'search',
          name: 'reference',
          onchange: (/** @type {Event} */ e) => {
            reference = /** @type {HTMLInputElement} */ (e.target).value;
            void load();
          },
        }),
      ),
    ),
    out,
    enrol,
  );
  await load();
}
