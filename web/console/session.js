// The evidence viewer of one session: document images (zoom, pan), MRZ fields with each check
// digit's result, extracted fields with corrections (PATCH /v1/verifications/{id}, audited), the selfie
// beside the portrait with the face-match score, liveness signals, screening hits beside the list
// entry, the decision trail and the audit rows; approve or decline with a reason code. All through /v1.
import { actorName, blobUrl, call, can, get, problem, self } from './api.js';
import { ago, h, label, mount, table, when } from './dom.js';
import { zoomable } from './viewer.js';

/** @type {[string, string][]} */
const FIELDS = [
  ['given_names', 'Given names'],
  ['surname', 'Surname'],
  ['date_of_birth', 'Date of birth'],
  ['sex', 'Sex'],
  ['nationality', 'Nationality'],
  ['document_type', 'Document type'],
  ['document_number', 'Document number'],
  ['issuing_country', 'Issuing country'],
  ['expiry_date', 'Expiry date'],
];

/** Reason codes a reviewer gives with a decision (kept in the decision's reason and the audit row). */
/** @type {Record<'approved' | 'declined', [string, string][]>} */
export const DECISION_REASONS = {
  approved: [
    ['identity_confirmed', 'Identity confirmed on review'],
    ['screening_false_positive', 'Screening hit is a different person'],
    ['document_legible_on_review', 'Document legible on review'],
  ],
  declined: [
    ['screening_match_confirmed', 'Screening hit confirmed'],
    ['document_suspected_forgery', 'Document suspected forged or altered'],
    ['face_mismatch', 'Selfie is not the document holder'],
    ['document_expired', 'Document expired'],
    ['liveness_spoof', 'Selfie not live (photo, screen or mask)'],
  ],
};

const PENDING = ['pending', 'processing'];

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @param {(text: string) => void} say
 */
export async function renderSession(root, id, say) {
  mount(root, h('h1', { tabindex: '-1' }, `Session ${id}`), h('p', null, 'Loading…'));
  const r = await get(`/v1/verifications/${encodeURIComponent(id)}`);
  if (r.status !== 200) {
    mount(root, h('h1', { tabindex: '-1' }, `Session ${id}`), h('p', null, problem(r)));
    return;
  }
  const v = r.data;
  const [checks, cases, audit] = await Promise.all([
    Promise.all(v.checks.map(async (/** @type {any} */ c) => (await get(`/v1/checks/${c.id}`)).data)),
    get(`/v1/cases?verification_id=${encodeURIComponent(id)}`),
    get(`/v1/audit-events?resource_id=${encodeURIComponent(id)}&limit=100`),
  ]);
  /** @param {string} type */
  const check = (type) => checks.find((/** @type {any} */ c) => c && c.type === type) ?? null;
  const reviewCase = (cases.data?.data ?? []).find((/** @type {any} */ c) => c.state !== 'closed') ?? null;
  const reload = () => renderSession(root, id, say);

  mount(
    root,
    h('h1', { tabindex: '-1' }, `Session ${v.id}`),
    summary(v, reviewCase, reload, say),
    h(
      'div',
      { class: 'evidence-grid' },
      documentSection(check('document')),
      faceSection(check('face_match'), check('liveness'), check('document')),
      fieldsSection(v, reload, say),
      screeningSection(check('sanctions_pep'), v.fields),
    ),
    decisionSection(v, checks, reload, say),
    trailSection(v, audit.data?.data ?? []),
  );
}

/**
 * @param {any} v
 * @param {any} reviewCase
 * @param {() => void} reload
 * @param {(text: string) => void} say
 */
function summary(v, reviewCase, reload, say) {
  /** @param {string} path @param {string} name @param {string} file the saved file's name */
  const download = (path, name, file) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: async () => {
          const url = await blobUrl(path);
          if (!url) return say(`The ${name} could not be made.`);
          const a = h('a', { href: url, download: file });
          document.body.append(a);
          a.click();
          a.remove();
        },
      },
      `Download ${name}`,
    );
  const claim =
    reviewCase && !reviewCase.owner && can('cases:write')
      ? h(
          'button',
          {
            type: 'button',
            onclick: async () => {
              const r = await call('PATCH', `/v1/cases/${reviewCase.id}`, { state: 'in_review', owner: self() });
              if (r.status !== 200) return say(problem(r));
              reload();
            },
          },
          'Claim this review',
        )
      : null;
  const release =
    reviewCase && reviewCase.owner === self()
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: async () => {
              const r = await call('PATCH', `/v1/cases/${reviewCase.id}`, { state: 'open', owner: null });
              if (r.status !== 200) return say(problem(r));
              location.hash = '#/queue';
            },
          },
          'Return to queue',
        )
      : null;
  return h(
    'section',
    { class: 'summary', 'aria-label': 'Summary' },
    h(
      'dl',
      null,
      h('dt', null, 'Status'),
      h('dd', { id: 'session-status' }, h('span', { class: `status ${v.status}` }, label(v.status))),
      h('dt', null, 'Subject'),
      h('dd', null, v.subject.reference ?? '—'),
      h('dt', null, 'Journey'),
      h('dd', null, `${v.journey} v${v.journey_version}`),
      h('dt', null, 'Risk'),
      h('dd', null, v.risk ? `${v.risk.score} (${v.risk.band})` : '—'),
      h('dt', null, 'Reasons'),
      h('dd', null, (v.reason_codes ?? []).map(label).join(', ') || '—'),
      h('dt', null, 'Review'),
      h(
        'dd',
        { id: 'review-owner' },
        reviewCase
          ? `${label(reviewCase.state)} · ${reviewCase.owner ? actorName(reviewCase.owner) : 'unassigned'} · opened ${ago(reviewCase.created_at)} ago`
          : 'no open case',
      ),
    ),
    h(
      'p',
      { class: 'actions' },
      claim,
      release,
      download(`/v1/verifications/${v.id}/evidence`, 'evidence zip', `${v.id}-evidence.zip`),
      download(`/v1/verifications/${v.id}/report`, 'PDF report', `${v.id}-report.pdf`),
    ),
  );
}

/** @param {any} c */
const status = (c) => (c ? h('span', { class: `status ${c.status}` }, label(c.status)) : 'not in this journey');

/** @param {any} c @param {string} kind */
const media = (c, kind) => (c?.media ?? []).filter((/** @type {any} */ m) => m.kind.includes(kind));

/** @param {any} c */
function documentSection(c) {
  const mrz = c?.result?.mrz;
  return h(
    'section',
    { 'aria-labelledby': 'doc-h' },
    h('h2', { id: 'doc-h' }, 'Document ', status(c)),
    c
      ? (c.media ?? [])
          .filter((/** @type {any} */ m) => m.content_type.startsWith('image/'))
          .map((/** @type {any} */ m) => zoomable(`/v1/checks/${c.id}/media/${m.id}`, `Document: ${label(m.kind)}`))
      : null,
    c && (c.reasons ?? []).length ? h('p', null, 'Reasons: ', c.reasons.map(label).join(', ')) : null,
    mrz
      ? [
          h('pre', { class: 'mrz', 'aria-label': 'Machine-readable zone' }, (mrz.lines ?? []).join('\n')),
          table(
            `MRZ check digits (${mrz.valid ? 'all valid' : 'not all valid'})`,
            ['Field', 'Characters', 'Digit', 'Result'],
            (mrz.checks ?? []).map((/** @type {any} */ k) => [
              label(k.field),
              h('code', null, k.data),
              k.digit,
              h('span', { class: k.valid ? 'ok' : 'bad' }, k.valid ? 'valid' : 'wrong'),
            ]),
          ),
        ]
      : c
        ? h('p', null, 'No machine-readable zone was read.')
        : null,
  );
}

/** @param {any} face @param {any} liveness @param {any} doc */
function faceSection(face, liveness, doc) {
  const selfie = media(face, 'selfie')[0] ?? media(liveness, 'selfie')[0];
  const selfieOwner = media(face, 'selfie')[0] ? face : liveness;
  // The portrait the face was compared with: a stored portrait medium, else the document it was cropped from.
  const ownPortrait = (face?.media ?? []).find((/** @type {any} */ m) => !m.kind.includes('selfie'));
  const portraitOwner = ownPortrait ? face : doc;
  const portrait = ownPortrait ?? media(doc, 'portrait')[0] ?? media(doc, 'front')[0];
  return h(
    'section',
    { 'aria-labelledby': 'face-h' },
    h('h2', { id: 'face-h' }, 'Face'),
    h(
      'div',
      { class: 'side-by-side' },
      selfie ? zoomable(`/v1/checks/${selfieOwner.id}/media/${selfie.id}`, 'Selfie') : h('p', null, 'No selfie stored.'),
      portrait ? zoomable(`/v1/checks/${portraitOwner.id}/media/${portrait.id}`, `Portrait source: ${label(portrait.kind)}`) : null,
    ),
    h(
      'p',
      { id: 'face-score' },
      'Face match: ',
      status(face),
      face && face.score !== null ? ` · similarity ${Number(face.score).toFixed(3)}` : '',
    ),
    h(
      'p',
      null,
      'Liveness: ',
      status(liveness),
      liveness && liveness.score !== null ? ` · score ${Number(liveness.score).toFixed(3)}` : '',
    ),
    liveness
      ? table(
          'Liveness signals',
          ['Signal', 'Value', 'Threshold', 'Result'],
          (liveness.signals ?? []).map((/** @type {any} */ s) => [
            label(s.name),
            typeof s.value === 'number' ? s.value.toFixed(3) : String(s.value),
            s.threshold ?? '—',
            s.passed === null ? '—' : h('span', { class: s.passed ? 'ok' : 'bad' }, s.passed ? 'passed' : 'failed'),
          ]),
        )
      : null,
  );
}

/**
 * @param {any} v
 * @param {() => void} reload
 * @param {(text: string) => void} say
 */
function fieldsSection(v, reload, say) {
  const editable = v.status === 'referred' && can('verifications:write');
  const fields = v.fields ?? {};
  const form = h(
    'form',
    {
      id: 'fields-form',
      'aria-label': 'Extracted fields',
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
        /** @type {Record<string, string | null>} */
        const changed = {};
        for (const [k] of FIELDS) {
          const now = String(data.get(k) ?? '').trim();
          if (now !== (fields[k] ?? '')) changed[k] = now === '' ? null : now;
        }
        if (Object.keys(changed).length === 0) return say('No field was changed.');
        const r = await call('PATCH', `/v1/verifications/${v.id}`, { fields: changed, reason: String(data.get('reason') ?? '') });
        if (r.status !== 200) return say(problem(r));
        say(`Corrected: ${Object.keys(changed).map(label).join(', ')}.`);
        reload();
      },
    },
    FIELDS.map(([k, text]) =>
      h(
        'div',
        { class: 'field' },
        h('label', { for: `f-${k}` }, text),
        h('input', { id: `f-${k}`, name: k, value: fields[k] ?? '', readonly: !editable, autocomplete: 'off' }),
      ),
    ),
    editable
      ? [
          h(
            'div',
            { class: 'field wide' },
            h('label', { for: 'f-reason' }, 'Reason for the correction'),
            h('input', { id: 'f-reason', name: 'reason', required: true }),
          ),
          h('button', { type: 'submit' }, 'Save corrections'),
        ]
      : null,
  );
  return h(
    'section',
    { 'aria-labelledby': 'fields-h' },
    h('h2', { id: 'fields-h' }, 'Extracted fields'),
    form,
    (v.corrections ?? []).length
      ? table(
          'Corrections',
          ['When', 'Who', 'Fields', 'Reason', 'Re-screening'],
          v.corrections.map((/** @type {any} */ c) => [
            when(c.at),
            actorName(c.actor),
            c.fields.map(label).join(', '),
            c.reason,
            c.rescreening ? `${label(c.rescreening.before)} → ${label(c.rescreening.after)}` : '—',
          ]),
        )
      : null,
  );
}

/** @param {any} c @param {any} fields */
function screeningSection(c, fields) {
  const hits = c?.result?.hits ?? [];
  const subject = fields ? [fields.given_names, fields.surname].filter(Boolean).join(' ') : '';
  return h(
    'section',
    { 'aria-labelledby': 'screen-h' },
    h('h2', { id: 'screen-h' }, 'Screening ', status(c)),
    c && hits.length === 0 ? h('p', null, 'No hits above the threshold.') : null,
    hits.map((/** @type {any} */ hit) =>
      h(
        'article',
        { class: 'hit' },
        h(
          'div',
          { class: 'side-by-side' },
          h(
            'dl',
            { 'aria-label': 'Subject' },
            h('dt', null, 'Subject'),
            h('dd', null, subject || '—'),
            h('dt', null, 'Born'),
            h('dd', null, fields?.date_of_birth ?? '—'),
            h('dt', null, 'Nationality'),
            h('dd', null, fields?.nationality ?? '—'),
          ),
          h(
            'dl',
            { 'aria-label': 'List entry' },
            h('dt', null, 'List entry'),
            h('dd', null, hit.names.join(' / ')),
            h('dt', null, 'Source'),
            h('dd', null, `${hit.source} · ${hit.entity_id}`),
            h('dt', null, 'Data sets, programmes'),
            h('dd', null, [...hit.datasets, ...hit.programs].join(', ') || '—'),
            h('dt', null, 'Listed'),
            h('dd', null, hit.listed_at ?? '—'),
          ),
        ),
        h(
          'p',
          null,
          `Score ${Number(hit.score).toFixed(2)}${hit.blocked ? ' · blocklist' : ''} · agrees: ${hit.explanation.matched.map(label).join(', ') || '—'} · contradicts: ${
            hit.explanation.contradicted.map(label).join(', ') || '—'
          }`,
        ),
      ),
    ),
  );
}

/**
 * @param {any} v
 * @param {any[]} checks
 * @param {() => void} reload
 * @param {(text: string) => void} say
 */
function decisionSection(v, checks, reload, say) {
  if (v.status !== 'referred')
    return h(
      'section',
      { 'aria-labelledby': 'dec-h' },
      h('h2', { id: 'dec-h' }, 'Decision'),
      h('p', { id: 'decision-now' }, label(v.status)),
    );
  if (!can('verifications:write')) return null;
  const pending = checks.filter((c) => c && PENDING.includes(c.status));
  const reasons = h('select', { id: 'reason-code', name: 'reason_code', required: true });
  const fill = (/** @type {'approved' | 'declined'} */ d) =>
    mount(
      reasons,
      DECISION_REASONS[d].map(([k, t]) => h('option', { value: k }, t)),
    );
  fill('approved');
  return h(
    'section',
    { 'aria-labelledby': 'dec-h' },
    h('h2', { id: 'dec-h' }, 'Decision'),
    pending.length
      ? h('p', { class: 'bad', role: 'status' }, `Blocked: ${pending.map((c) => label(c.type)).join(', ')} still running.`)
      : null,
    h(
      'form',
      {
        id: 'decision-form',
        onsubmit: async (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
          const decision = String(data.get('decision'));
          const note = String(data.get('note') ?? '').trim();
          const reason = `${data.get('reason_code')}${note ? `: ${note}` : ''}`;
          const r = await call('POST', `/v1/verifications/${v.id}/decision`, { decision, reason });
          if (r.status !== 200) return say(problem(r));
          say(`Decision recorded: ${decision}.`);
          reload();
        },
      },
      h(
        'fieldset',
        null,
        h('legend', null, 'Outcome'),
        h(
          'label',
          null,
          h('input', { type: 'radio', name: 'decision', value: 'approved', checked: true, onchange: () => fill('approved') }),
          ' Approve',
        ),
        h('label', null, h('input', { type: 'radio', name: 'decision', value: 'declined', onchange: () => fill('declined') }), ' Decline'),
      ),
      h('label', { for: 'reason-code' }, 'Reason code'),
      reasons,
      h('label', { for: 'decision-note' }, 'Note (kept in the audit trail; no personal data)'),
      h('textarea', { id: 'decision-note', name: 'note', rows: '2' }),
      h('button', { type: 'submit', disabled: pending.length > 0 }, 'Record decision'),
    ),
  );
}

/** @param {any} v @param {any[]} audit */
function trailSection(v, audit) {
  return h(
    'section',
    { 'aria-labelledby': 'trail-h' },
    h('h2', { id: 'trail-h' }, 'Decision trail'),
    table(
      'State changes',
      ['When', 'From', 'To', 'Event', 'By'],
      (v.transitions ?? []).map((/** @type {any} */ t) => [
        when(t.at),
        label(t.from ?? '—'),
        label(t.to),
        label(t.event),
        actorName(t.actor),
      ]),
    ),
    h(
      'div',
      { id: 'session-audit' },
      table(
        'Audit log of this session',
        ['When', 'Action', 'By', 'Details'],
        audit.map((/** @type {any} */ a) => [
          when(a.created_at),
          a.action,
          actorName(a.actor),
          a.metadata?.reason ? String(a.metadata.reason) : a.diff ? Object.keys(a.diff).join(', ') : '',
        ]),
      ),
    ),
  );
}
