// KYT rules: published versions, a diff between two versions (or a version and the draft), the draft's
// rules with an expression editor checked by the server (POST /v1/rules/validate: each error shown at
// its line and column), saving to the draft (PATCH /v1/rules/{id}) and publishing by a second person
// (POST /v1/rules/publish: the server refuses the draft's authors, maker-checker). Testing against a
// sample, backtests and shadow hits: rules-lab.js.
import { actorName, call, can, get, problem } from './api.js';
import { h, mount, table, when } from './dom.js';
import { mode, rulesLab } from './rules-lab.js';

/**
 * An error placed at its position: the expression's line with a caret under the column.
 * @param {string} expression
 * @param {any} e `{ message, position: { line, column } | null }`
 */
function placed(expression, e) {
  if (!e.position) return h('li', null, e.message);
  const line = expression.split('\n')[e.position.line - 1] ?? '';
  return h(
    'li',
    null,
    `Line ${e.position.line}, column ${e.position.column}: ${e.message}`,
    h('pre', { class: 'caret', 'aria-hidden': 'true' }, `${line}\n${' '.repeat(Math.max(0, e.position.column - 1))}^`),
  );
}

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderRules(root, say) {
  const [set, draft] = await Promise.all([get('/v1/rules'), get('/v1/rules/draft')]);
  if (set.status !== 200) return say(problem(set));
  const reload = () => renderRules(root, say);
  const d = draft.status === 200 ? draft.data : null;
  const versions = set.data.versions ?? [];

  const diffOut = h('div', { id: 'rules-diff', 'aria-live': 'polite' });
  /** @param {string} name @param {string} text @param {string[]} values */
  const pick = (name, text, values) =>
    h(
      'label',
      null,
      text,
      h(
        'select',
        { name },
        values.map((v) => h('option', { value: v }, v === 'draft' ? 'draft' : `v${v}`)),
      ),
    );
  const diffForm =
    versions.length > 0
      ? h(
          'form',
          {
            class: 'filters',
            'aria-label': 'Compare versions',
            onsubmit: async (/** @type {SubmitEvent} */ e) => {
              e.preventDefault();
              const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
              const r = await get(`/v1/rules/diff?from=${f.get('from')}&to=${f.get('to')}`);
              if (r.status !== 200) return say(problem(r));
              const x = r.data;
              mount(
                diffOut,
                table(
                  `Changes from v${x.from} to ${x.to === 'draft' ? 'the draft' : `v${x.to}`}`,
                  ['Change', 'Rule', 'Fields'],
                  [
                    ...x.rules.added.map((/** @type {any} */ a) => ['added', a.key, '']),
                    ...x.rules.removed.map((/** @type {any} */ a) => ['removed', a.key, '']),
                    ...x.rules.changed.map((/** @type {any} */ a) => [
                      'changed',
                      a.key,
                      Object.entries(a.fields ?? {})
                        .map(([k, c]) => `${k}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)
                        .join('; '),
                    ]),
                    ...Object.keys(x.thresholds ?? {}).map((k) => ['threshold', k, `${x.thresholds[k].before} → ${x.thresholds[k].after}`]),
                  ],
                ),
              );
            },
          },
          pick(
            'from',
            'From',
            versions.map((/** @type {any} */ v) => String(v.version)),
          ),
          pick('to', 'To', ['draft', ...versions.map((/** @type {any} */ v) => String(v.version))]),
          h('button', { type: 'submit', class: 'secondary' }, 'Compare'),
        )
      : h('p', null, 'No version published yet: the draft is the starter library.');

  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Rules'),
    h('p', { id: 'rules-current' }, `Current version: ${set.data.current_version ? `v${set.data.current_version}` : 'none'}`),
    table(
      'Published versions',
      ['Version', 'Published', 'By', 'Authors', 'Note'],
      versions.map((/** @type {any} */ v) => [
        `v${v.version}`,
        when(v.published_at),
        actorName(v.published_by),
        v.authors.map(actorName).join(', '),
        v.change_note ?? '',
      ]),
    ),
    h('h2', null, 'Compare'),
    diffForm,
    diffOut,
    d ? draftSection(d, reload, say) : null,
    rulesLab(() => /** @type {HTMLTextAreaElement | null} */ (document.getElementById('expression'))?.value ?? '', say),
  );
}

/**
 * @param {any} d the draft
 * @param {() => void} reload
 * @param {(text: string) => void} say
 */
function draftSection(d, reload, say) {
  const rules = d.rules ?? [];
  const errors = h('ul', { id: 'expression-errors', class: 'bad', 'aria-live': 'polite' });
  const expression = h('textarea', {
    id: 'expression',
    name: 'expression',
    rows: '5',
    spellcheck: 'false',
    'aria-describedby': 'expression-errors',
  });
  const ruleSelect = h(
    'select',
    { id: 'rule-id', name: 'rule_id', onchange: () => show() },
    rules.map((/** @type {any} */ r) => h('option', { value: r.id }, `${r.key} (${r.status === 'test' ? 'shadow test' : r.status})`)),
  );
  const status = h(
    'select',
    { id: 'rule-status', name: 'status' },
    ['draft', 'test', 'active', 'disabled'].map((s) => h('option', { value: s }, s)),
  );
  const show = () => {
    const r = rules.find((/** @type {any} */ x) => x.id === /** @type {HTMLSelectElement} */ (ruleSelect).value);
    /** @type {HTMLTextAreaElement} */ (expression).value = r?.expression ?? '';
    /** @type {HTMLSelectElement} */ (status).value = r?.status ?? 'draft';
    errors.replaceChildren();
    expression.removeAttribute('aria-invalid');
  };
  /** Asks the server; shows each error at its position. @returns {Promise<boolean>} */
  const check = async () => {
    const text = /** @type {HTMLTextAreaElement} */ (expression).value;
    const r = await call('POST', '/v1/rules/validate', { expression: text });
    if (r.status !== 200) {
      say(problem(r));
      return false;
    }
    mount(
      errors,
      r.data.errors.map((/** @type {any} */ e) => placed(text, e)),
    );
    if (r.data.valid) {
      expression.removeAttribute('aria-invalid');
      mount(errors, h('li', { class: 'ok' }, `Valid · reads ${r.data.reads.join(', ') || 'nothing'}`));
    } else expression.setAttribute('aria-invalid', 'true');
    return r.data.valid;
  };
  const editor = can('rules:write')
    ? h(
        'form',
        {
          id: 'rule-editor',
          'aria-label': 'Edit a rule in the draft',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            if (!(await check())) return;
            const id = /** @type {HTMLSelectElement} */ (ruleSelect).value;
            const r = await call('PATCH', `/v1/rules/${encodeURIComponent(id)}`, {
              expression: /** @type {HTMLTextAreaElement} */ (expression).value,
              status: /** @type {HTMLSelectElement} */ (status).value,
            });
            if (r.status !== 200) return say(problem(r));
            say(`Saved ${r.data.key} to the draft.`);
            reload();
          },
        },
        h('label', { for: 'rule-id' }, 'Rule'),
        ruleSelect,
        h('label', { for: 'expression' }, 'Expression (CEL)'),
        expression,
        errors,
        h('label', { for: 'rule-status' }, 'Status'),
        status,
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'secondary', onclick: () => check() }, 'Check'),
          h('button', { type: 'submit' }, 'Save to draft'),
        ),
      )
    : null;
  const publish = can('rules:publish')
    ? h(
        'form',
        {
          id: 'rules-publish',
          'aria-label': 'Publish the draft',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
            const note = String(f.get('change_note') ?? '').trim();
            const r = await call('POST', '/v1/rules/publish', { revision: d.revision, ...(note ? { change_note: note } : {}) });
            if (r.status >= 300) return say(problem(r));
            say(`Published v${r.data.current_version}.`);
            reload();
          },
        },
        h('label', { for: 'change-note' }, 'Change note'),
        h('input', { id: 'change-note', name: 'change_note' }),
        h('button', { type: 'submit', disabled: d.revision < 1 }, `Publish revision ${d.revision}`),
      )
    : null;
  const section = h(
    'section',
    { 'aria-labelledby': 'draft-h' },
    h('h2', { id: 'draft-h' }, `Draft · revision ${d.revision}`),
    h('p', null, `Based on v${d.base_version} · authors: ${d.authors.map(actorName).join(', ') || 'none'} (an author cannot publish it)`),
    table(
      'Rules in the draft',
      ['Rule', 'Status', 'Severity', 'Score', 'Expression'],
      rules.map((/** @type {any} */ r) => [r.key, mode(r.status), r.severity, r.score, h('code', null, r.expression)]),
    ),
    editor,
    publish,
  );
  show();
  return section;
}
