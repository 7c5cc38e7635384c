// The review queue: referred sessions, alerts and cases (GET /v1/cases) with filters, "claim next"
// (POST /v1/cases/claim: the server locks the case to this operator) and each case's age against the SLA.
import { actorName, call, can, get, problem, self, session } from './api.js';
import { ago, filterSelect, h, label, mount, table, when } from './dom.js';

const KINDS = ['verification_review', 'screening_alert', 'alert_review'];
const SEVERITIES = ['critical', 'high', 'medium', 'low'];
const AGES = /** @type {const} */ ([
  ['', 'Any age'],
  ['1', 'Older than 1 h'],
  ['24', 'Older than 24 h'],
  ['168', 'Older than 7 days'],
]);

/** @type {{ state: string, kind: string, severity: string, owner: string, age: string, snoozed: string }} */
const filters = { state: 'open', kind: '', severity: '', owner: '', age: '', snoozed: 'false' };

/** Where a case is worked on: a session's evidence, or the case itself. @param {any} c */
export const caseHref = (c) =>
  c.kind === 'verification_review' && c.verification_id ? `#/sessions/${c.verification_id}` : `#/cases/${c.id}`;

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderQueue(root, say) {
  const list = h('div', { id: 'queue-list', 'aria-live': 'polite' });
  /**
   * @param {string} name
   * @param {string} text
   * @param {ReadonlyArray<readonly [string, string]>} options
   */
  const select = (name, text, options) => filterSelect(/** @type {any} */ (filters), name, text, options, () => void load());
  const claim = can('cases:write')
    ? h(
        'button',
        {
          type: 'button',
          id: 'claim-next',
          onclick: async () => {
            const r = await call('POST', '/v1/cases/claim', {
              ...(filters.kind ? { kind: filters.kind } : {}),
              ...(filters.severity ? { severity: filters.severity } : {}),
            });
            if (r.status !== 200) return say(problem(r));
            if (!r.data.case) return say('Nothing to claim: no open, unassigned case matches the filters.');
            say('');
            location.hash = caseHref(r.data.case);
          },
        },
        'Claim next',
      )
    : null;

  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Review queue'),
    h(
      'form',
      { class: 'filters', 'aria-label': 'Filters', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
      select('state', 'State', [
        ['open', 'Open'],
        ['in_review', 'In review'],
        ['closed', 'Closed'],
      ]),
      select('kind', 'Kind', [['', 'All kinds'], ...KINDS.map((k) => /** @type {const} */ ([k, label(k)]))]),
      select('severity', 'Severity', [['', 'Any severity'], ...SEVERITIES.map((s) => /** @type {const} */ ([s, s]))]),
      select('owner', 'Owner', [
        ['', 'Anyone'],
        ['me', 'Me'],
        ['none', 'Unassigned'],
      ]),
      select('age', 'Age', AGES),
      select('snoozed', 'Snoozed', [
        ['false', 'Hide snoozed'],
        ['true', 'Only snoozed'],
        ['', 'Show all'],
      ]),
      claim,
    ),
    list,
  );

  /** @param {string | null} cursor */
  async function load(cursor = null) {
    const q = new URLSearchParams({ limit: '25', state: filters.state });
    if (filters.kind) q.set('kind', filters.kind);
    if (filters.severity) q.set('severity', filters.severity);
    if (filters.owner) q.set('owner', filters.owner === 'me' ? self() : filters.owner);
    if (filters.age) q.set('created_lt', new Date(Date.now() - Number(filters.age) * 3600_000).toISOString());
    if (filters.snoozed) q.set('snoozed', filters.snoozed);
    if (cursor) q.set('cursor', cursor);
    const r = await get(`/v1/cases?${q}`);
    if (r.status !== 200) return say(problem(r));
    const slaMs = (session.me?.review_sla_hours ?? 24) * 3600_000;
    /** @param {any} c */
    const age = (c) => {
      const overdue = c.state !== 'closed' && Date.now() - Date.parse(c.created_at) > slaMs;
      return h(
        'span',
        { class: overdue ? 'overdue' : 'in-sla' },
        `${ago(c.created_at)}`,
        overdue ? ' · overdue' : ` · SLA ${slaMs / 3600_000} h`,
      );
    };
    mount(
      list,
      table(
        `${r.data.data.length} case${r.data.data.length === 1 ? '' : 's'}`,
        ['Case', 'Kind', 'Subject', 'Severity', 'Owner', 'Age', 'Reason'],
        r.data.data.map((/** @type {any} */ c) => [
          h('a', { href: caseHref(c) }, c.id),
          label(c.kind),
          c.subject_reference ?? '—',
          h('span', { class: `sev ${c.severity}` }, c.severity),
          [
            c.owner ? actorName(c.owner) : 'unassigned',
            c.snoozed_until && Date.parse(c.snoozed_until) > Date.now() ? ` · snoozed until ${when(c.snoozed_until)}` : '',
          ],
          age(c),
          label(c.reason_code),
        ]),
      ),
      r.data.next_cursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(r.data.next_cursor) }, 'Next page') : null,
    );
  }
  await load();
}
