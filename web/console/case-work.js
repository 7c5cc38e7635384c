// What a reviewer does with a case besides moving its state (issue #16 item 4), through /v1 as the
// operator: comments (GET/POST /v1/cases/{id}/comments), assignment, snooze and the outcome on closing
// (PATCH /v1/cases/{id}), and links to what the case touches (sessions, businesses, transactions,
// wallets), read from the case and its alerts.
import { actorName, call, can, get, problem, self } from './api.js';
import { h, label, mount, table, when } from './dom.js';

export const OUTCOMES = ['true_positive', 'false_positive', 'inconclusive'];
const SNOOZES = /** @type {const} */ ([
  ['1', '1 hour'],
  ['24', '1 day'],
  ['168', '7 days'],
  ['720', '30 days'],
]);

/**
 * Assign (to me, to a named reviewer, nobody) and snooze or wake: controls for an open or in-review case.
 * @param {any} c the case
 * @param {(body: Record<string, unknown>) => Promise<void>} patch
 */
export function assignAndSnooze(c, patch) {
  const snoozed = c.snoozed_until && Date.parse(c.snoozed_until) > Date.now();
  return h(
    'div',
    { class: 'actions', id: 'case-work' },
    h(
      'form',
      {
        class: 'inline',
        'aria-label': 'Assign',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const who = String(new FormData(/** @type {HTMLFormElement} */ (e.target)).get('owner') ?? '').trim();
          void patch({ owner: who || null });
        },
      },
      h('label', { for: 'case-owner' }, 'Assign to'),
      h('input', { id: 'case-owner', name: 'owner', value: c.owner ?? '', placeholder: 'reviewer (empty: nobody)' }),
      h('button', { type: 'submit', class: 'secondary' }, 'Assign'),
      c.owner !== self()
        ? h('button', { type: 'button', class: 'secondary', onclick: () => patch({ owner: self() }) }, 'Assign to me')
        : null,
    ),
    h(
      'form',
      {
        class: 'inline',
        'aria-label': 'Snooze',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const hours = Number(new FormData(/** @type {HTMLFormElement} */ (e.target)).get('hours'));
          void patch({ snoozed_until: new Date(Date.now() + hours * 3600_000).toISOString() });
        },
      },
      h('label', { for: 'snooze-for' }, 'Snooze for'),
      h(
        'select',
        { id: 'snooze-for', name: 'hours' },
        SNOOZES.map(([v, t]) => h('option', { value: v }, t)),
      ),
      h('button', { type: 'submit', class: 'secondary' }, 'Snooze'),
      snoozed ? h('button', { type: 'button', class: 'secondary', onclick: () => patch({ snoozed_until: null }) }, 'Wake now') : null,
    ),
  );
}

/**
 * Sessions, businesses, transactions and wallets the case touches: its own subject and session, and each
 * alert's subject and details (transaction_id, monitor_id, screening_id). Each link opens a console view.
 * @param {any} c
 */
export function linkedRecords(c) {
  /** @type {Map<string, [string, string]>} href → [kind, text] */
  const links = new Map();
  /** @param {string} kind @param {string} href @param {string} text */
  const add = (kind, href, text) => links.set(href, [kind, text]);
  if (c.verification_id) add('Session', `#/sessions/${encodeURIComponent(c.verification_id)}`, c.verification_id);
  if (c.subject_type === 'business')
    add('Business', `#/businesses/${encodeURIComponent(c.subject_id)}`, c.subject_reference ?? c.subject_id);
  if (c.subject_type === 'wallet_monitor') add('Wallet', `#/wallets/${encodeURIComponent(c.subject_id)}`, c.subject_id);
  for (const a of c.alerts ?? []) {
    const d = a.details ?? {};
    if (a.subject_type === 'business')
      add('Business', `#/businesses/${encodeURIComponent(a.subject_id)}`, a.subject_reference ?? a.subject_id);
    if (typeof d.transaction_id === 'string')
      add(
        'Transaction',
        `#/transactions/${encodeURIComponent(d.transaction_id)}`,
        d.reference ? `${d.transaction_id} (${d.reference})` : d.transaction_id,
      );
    if (typeof d.monitor_id === 'string')
      add('Wallet', `#/wallets/${encodeURIComponent(d.monitor_id)}`, d.address ? `${d.chain} ${d.address}` : d.monitor_id);
  }
  if (links.size === 0) return null;
  return h(
    'section',
    { 'aria-labelledby': 'linked-h' },
    h('h2', { id: 'linked-h' }, 'Linked records'),
    h(
      'ul',
      { id: 'case-links' },
      [...links].map(([href, [kind, text]]) => h('li', null, `${kind} `, h('a', { href }, text))),
    ),
  );
}

/**
 * The case's comments, oldest first, and a form to add one (cases:write).
 * @param {string} caseId
 * @param {(text: string) => void} say
 */
export async function renderComments(caseId, say) {
  const box = h('section', { 'aria-labelledby': 'comments-h', id: 'case-comments' });
  const load = async () => {
    const r = await get(`/v1/cases/${encodeURIComponent(caseId)}/comments?limit=100`);
    if (r.status !== 200) return say(problem(r));
    mount(
      box,
      h('h2', { id: 'comments-h' }, 'Comments'),
      table(
        `${r.data.data.length} comment${r.data.data.length === 1 ? '' : 's'}`,
        ['When', 'By', 'Comment'],
        r.data.data.map((/** @type {any} */ m) => [when(m.created_at), actorName(m.author), m.body]),
      ),
      can('cases:write')
        ? h(
            'form',
            {
              'aria-label': 'Add a comment',
              onsubmit: async (/** @type {SubmitEvent} */ e) => {
                e.preventDefault();
                const form = /** @type {HTMLFormElement} */ (e.target);
                const body = String(new FormData(form).get('body') ?? '');
                const res = await call('POST', `/v1/cases/${encodeURIComponent(caseId)}/comments`, { body });
                if (res.status !== 201) return say(problem(res));
                say('Comment added.');
                await load();
              },
            },
            h('label', { for: 'comment-body' }, 'New comment'),
            h('textarea', { id: 'comment-body', name: 'body', required: true, maxlength: '4000', rows: '3' }),
            h('button', { type: 'submit' }, 'Add comment'),
          )
        : null,
    );
  };
  await load();
  return box;
}

/** Outcome choices for the close form. */
export const outcomeSelect = () => [
  h('label', { for: 'outcome' }, 'Outcome'),
  h(
    'select',
    { id: 'outcome', name: 'outcome', required: true },
    h('option', { value: '' }, 'Choose…'),
    OUTCOMES.map((o) => h('option', { value: o }, label(o))),
  ),
];
