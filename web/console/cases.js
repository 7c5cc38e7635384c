// One case or alert (GET /v1/cases/{id}): its alerts, trail, and the reviewer's moves through
// PATCH /v1/cases/{id}: take it, return it to the queue, change severity, assign, snooze, close with a
// resolution and an outcome; comments and linked records (case-work.js).
// And the audit log (GET /v1/audit-events), searchable by resource, actor and action.
import { actorName, call, can, get, problem, self } from './api.js';
import { h, label, mount, table, when } from './dom.js';
import { assignAndSnooze, linkedRecords, outcomeSelect, renderComments } from './case-work.js';

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @param {(text: string) => void} say
 */
export async function renderCase(root, id, say) {
  const r = await get(`/v1/cases/${encodeURIComponent(id)}`);
  if (r.status !== 200) return mount(root, h('h1', { tabindex: '-1' }, `Case ${id}`), h('p', null, problem(r)));
  const c = r.data;
  /** @param {Record<string, unknown>} body */
  const patch = async (body) => {
    const res = await call('PATCH', `/v1/cases/${c.id}`, body);
    if (res.status !== 200) return say(problem(res));
    say('Case updated.');
    void renderCase(root, id, say);
  };
  const write = can('cases:write') && c.state !== 'closed';
  const comments = await renderComments(c.id, say);
  mount(
    root,
    h('h1', { tabindex: '-1' }, `Case ${c.id}`),
    h(
      'dl',
      { class: 'summary' },
      h('dt', null, 'Kind'),
      h('dd', null, label(c.kind)),
      h('dt', null, 'State'),
      h('dd', null, label(c.state)),
      h('dt', null, 'Severity'),
      h('dd', null, c.severity),
      h('dt', null, 'Owner'),
      h('dd', null, c.owner ? actorName(c.owner) : 'unassigned'),
      h('dt', null, 'Subject'),
      h(
        'dd',
        null,
        c.subject_type === 'business'
          ? h('a', { href: `#/businesses/${encodeURIComponent(c.subject_id)}` }, `business ${c.subject_reference ?? c.subject_id}`)
          : `${c.subject_type} ${c.subject_reference ?? c.subject_id}`,
      ),
      h('dt', null, 'Reasons'),
      h('dd', null, c.reason_codes.map(label).join(', ')),
      c.verification_id
        ? [h('dt', null, 'Session'), h('dd', null, h('a', { href: `#/sessions/${c.verification_id}` }, c.verification_id))]
        : null,
      c.resolution ? [h('dt', null, 'Resolution'), h('dd', null, c.resolution)] : null,
      c.outcome ? [h('dt', null, 'Outcome'), h('dd', null, label(c.outcome))] : null,
      c.snoozed_until && Date.parse(c.snoozed_until) > Date.now()
        ? [h('dt', null, 'Snoozed until'), h('dd', null, when(c.snoozed_until))]
        : null,
    ),
    write
      ? h(
          'p',
          { class: 'actions' },
          c.state === 'open'
            ? h('button', { type: 'button', onclick: () => patch({ state: 'in_review', owner: self() }) }, 'Take into review')
            : null,
          c.state === 'in_review'
            ? h('button', { type: 'button', class: 'secondary', onclick: () => patch({ state: 'open', owner: null }) }, 'Return to queue')
            : null,
          h(
            'label',
            null,
            'Severity ',
            h(
              'select',
              { onchange: (/** @type {Event} */ e) => patch({ severity: /** @type {HTMLSelectElement} */ (e.target).value }) },
              ['low', 'medium', 'high', 'critical'].map((s) => h('option', { value: s, selected: s === c.severity }, s)),
            ),
          ),
        )
      : null,
    write ? assignAndSnooze(c, patch) : null,
    write && c.kind !== 'verification_review'
      ? h(
          'form',
          {
            class: 'inline',
            onsubmit: (/** @type {SubmitEvent} */ e) => {
              e.preventDefault();
              const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
              void patch({ state: 'closed', resolution: String(data.get('resolution') ?? ''), outcome: String(data.get('outcome') ?? '') });
            },
          },
          h('label', { for: 'resolution' }, 'Resolution'),
          h('input', { id: 'resolution', name: 'resolution', required: true }),
          outcomeSelect(),
          h('button', { type: 'submit' }, 'Close case'),
        )
      : null,
    (c.alerts ?? []).length
      ? table(
          'Alerts',
          ['Alert', 'Kind', 'Severity', 'Title', 'Seen', 'Times'],
          c.alerts.map((/** @type {any} */ a) => [a.id, label(a.kind), a.severity, a.title, when(a.last_seen_at), a.occurrences]),
        )
      : null,
    linkedRecords(c),
    comments,
    table(
      'Trail',
      ['When', 'From', 'To', 'Event', 'By'],
      (c.transitions ?? []).map((/** @type {any} */ t) => [when(t.at), t.from ?? '—', t.to, label(t.event), actorName(t.actor)]),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderAudit(root, say) {
  const list = h('div', { 'aria-live': 'polite' });
  const chain = h('p', { id: 'audit-chain', class: 'status', role: 'status' }, 'Verifying the audit chain…');
  /** @type {number | null} */
  let badSeq = null;
  /** @param {Record<string, string>} q @param {string | null} [cursor] */
  const load = async (q, cursor = null) => {
    const params = new URLSearchParams({ limit: '100' });
    for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
    if (cursor) params.set('cursor', cursor);
    const r = await get(`/v1/audit-events?${params}`);
    if (r.status !== 200) return say(problem(r));
    mount(
      list,
      table(
        'Audit events (oldest first)',
        ['#', 'When', 'Action', 'By', 'Resource'],
        r.data.data.map((/** @type {any} */ a) => [
          a.sequence === badSeq ? h('span', { class: 'bad' }, `${a.sequence} (does not verify)`) : a.sequence,
          when(a.created_at),
          a.action,
          actorName(a.actor),
          `${a.resource.type} ${a.resource.id}`,
        ]),
      ),
      r.data.next_cursor
        ? h('button', { type: 'button', class: 'secondary', onclick: () => load(q, r.data.next_cursor) }, 'Next page')
        : null,
    );
  };
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Audit log'),
    chain,
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Search the audit log',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
          void load(Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v).trim()])));
        },
      },
      h('label', null, 'Resource id ', h('input', { name: 'resource_id' })),
      h('label', null, 'Actor id ', h('input', { name: 'actor_id' })),
      h('label', null, 'Action ', h('input', { name: 'action' })),
      h('button', { type: 'submit' }, 'Search'),
    ),
    list,
  );
  await load({});
  // The chain is verified after the first page is on the screen: it reads every row of this environment.
  void verifyChain(chain).then((seq) => {
    badSeq = seq;
    if (seq !== null) void load({});
  });
}

/**
 * GET /v1/audit-events/verification into the status line; resolves to the first position that does not hold.
 * @param {HTMLElement} el
 * @returns {Promise<number | null>}
 */
async function verifyChain(el) {
  const v = await get('/v1/audit-events/verification');
  if (v.status !== 200) {
    mount(el, h('span', { class: 'bad' }, `The audit chain could not be verified: ${problem(v)}`));
    return null;
  }
  const d = v.data;
  const pending = d.unsealed ? ` (${d.unsealed} newer still being sealed)` : '';
  mount(
    el,
    d.ok
      ? h(
          'span',
          { class: 'ok' },
          `Audit chain verified: ${d.checked} events of this environment intact${pending}, ${when(d.verified_at)}.`,
        )
      : h(
          'span',
          { class: 'bad' },
          `Audit chain BROKEN at position ${d.first_bad_sequence}: ${d.problem}. ${d.checked} events before it hold.`,
        ),
  );
  return d.ok ? null : d.first_bad_sequence;
}
