// Trying rules before they count: the draft tested against a sample transaction (POST /v1/rules/validate
// with `sample`: every active and test rule's outcome and the values it read), a backtest over stored
// transactions (POST /v1/rules/backtest, then GET /v1/rules/backtests/{id} until it ends: hits per rule,
// precision and recall where the history is labelled), and the shadow (test) rules' hits in recent
// transactions (GET /v1/transactions). Shadow rules are marked wherever they appear.
import { call, can, get, problem } from './api.js';
import { h, label, mount, table } from './dom.js';

/** @param {string} status a rule's status */
export const mode = (status) => (status === 'test' ? h('span', { class: 'shadow' }, 'shadow (test)') : label(status));

/** @param {string} outcome */
const outcomeText = (outcome) =>
  h('span', { class: outcome === 'hit' ? 'bad' : outcome === 'shadow_hit' ? 'shadow' : outcome === 'error' ? 'bad' : '' }, label(outcome));

/** @param {Record<string, unknown>} v */
const values = (v) =>
  Object.entries(v)
    .map(([k, x]) => `${k} = ${JSON.stringify(x)}`)
    .join(', ');

/** @param {number | null | undefined} r */
const ratio = (r) => (r === null || r === undefined ? '—' : r.toFixed(3));

const sampleText = () =>
  JSON.stringify(
    {
      tx: {
        amount: '5000.00',
        currency: 'EUR',
        occurred_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        direction: 'out',
        type: 'transfer',
      },
      counterparty: { country: 'DE' },
    },
    null,
    2,
  );

/**
 * @param {() => string} currentExpression the expression in the editor ('' when none)
 * @param {(text: string) => void} say
 */
export function rulesLab(currentExpression, say) {
  return h('div', { id: 'rules-lab' }, sampleSection(currentExpression, say), backtestSection(say), shadowSection(say));
}

/**
 * @param {() => string} currentExpression
 * @param {(text: string) => void} say
 */
function sampleSection(currentExpression, say) {
  const out = h('div', { id: 'sample-result', 'aria-live': 'polite' });
  const area = h(
    'textarea',
    { id: 'sample', name: 'sample', rows: '8', spellcheck: 'false', 'aria-describedby': 'sample-error' },
    sampleText(),
  );
  const error = h('p', { id: 'sample-error', class: 'bad' });
  return h(
    'section',
    { 'aria-labelledby': 'sample-h' },
    h('h2', { id: 'sample-h' }, 'Test the draft against a sample transaction'),
    h(
      'form',
      {
        'aria-label': 'Test against a sample',
        onsubmit: async (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          error.textContent = '';
          area.removeAttribute('aria-invalid');
          let sample;
          try {
            sample = JSON.parse(/** @type {HTMLTextAreaElement} */ (area).value);
          } catch (x) {
            area.setAttribute('aria-invalid', 'true');
            error.textContent = `The sample is not JSON: ${x instanceof Error ? x.message : String(x)}`;
            return;
          }
          const expression = currentExpression().trim();
          const r = await call('POST', '/v1/rules/validate', { sample, ...(expression ? { expression } : {}) });
          if (r.status !== 200) {
            area.setAttribute('aria-invalid', 'true');
            error.textContent = `${problem(r)}${r.data?.error?.field ? ` (${r.data.error.field})` : ''}`;
            return;
          }
          const s = r.data.sample_result;
          mount(
            out,
            h('p', { id: 'sample-decision' }, `The draft would decide ${label(s.status)} (score ${s.score}).`),
            s.expression
              ? h(
                  'p',
                  { id: 'sample-expression' },
                  `The expression in the editor: ${label(s.expression.outcome)}${s.expression.error ? ` — ${s.expression.error.message}` : ''}`,
                )
              : null,
            table(
              'Rules over the sample',
              ['Rule', 'Mode', 'Outcome', 'Score', 'Values read'],
              s.outcomes.map((/** @type {any} */ o) => [
                o.key,
                mode(o.status),
                outcomeText(o.outcome),
                o.score,
                o.error ? o.error.message : values(o.values_used),
              ]),
            ),
          );
          say('Sample tested.');
        },
      },
      h('label', { for: 'sample' }, 'Sample (JSON rule context: tx, subject, counterparty, wallet, lists, agg)'),
      area,
      error,
      h('button', { type: 'submit', class: 'secondary' }, 'Test sample'),
    ),
    out,
  );
}

/** @param {(text: string) => void} say */
function backtestSection(say) {
  const out = h('div', { id: 'backtest-result', 'aria-live': 'polite' });
  const day = (/** @type {number} */ offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  /** @param {any} b */
  const show = (b) => {
    const x = b.result;
    if (!x) return mount(out, h('p', { id: 'backtest-state' }, `Backtest ${b.id}: ${b.state}${b.error ? ` — ${b.error}` : ''}`));
    mount(
      out,
      h(
        'p',
        { id: 'backtest-state' },
        `Backtest ${b.id} of the ${b.ruleset}: ${b.state} · ${x.evaluated} transactions evaluated · ${x.flagged.count} flagged` +
          (x.labelled
            ? ` · ${x.labelled} labelled, ${x.positives} suspicious · precision ${ratio(x.flagged.precision)} · recall ${ratio(x.flagged.recall)}`
            : ' · no labels'),
      ),
      x.context_note ? h('p', null, x.context_note) : null,
      table(
        'Hits per rule',
        ['Rule', 'Mode', 'Evaluated', 'Hits', 'Errors', 'Precision', 'Recall', 'Examples'],
        x.rules.map((/** @type {any} */ r) => [
          r.key,
          mode(r.status),
          r.evaluated,
          r.hits,
          r.errors,
          ratio(r.precision),
          ratio(r.recall),
          r.sample_references.slice(0, 3).join(', '),
        ]),
      ),
    );
  };
  return h(
    'section',
    { 'aria-labelledby': 'backtest-h' },
    h('h2', { id: 'backtest-h' }, 'Backtest'),
    can('rules:write')
      ? h(
          'form',
          {
            class: 'filters',
            'aria-label': 'Start a backtest',
            onsubmit: async (/** @type {SubmitEvent} */ e) => {
              e.preventDefault();
              const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
              const from = `${f.get('from')}T00:00:00Z`;
              const to = new Date(Date.parse(`${f.get('to')}T00:00:00Z`) + 86_400_000).toISOString();
              const r = await call('POST', '/v1/rules/backtest', { ruleset: 'draft', from, to });
              if (r.status !== 202) return say(problem(r));
              say(`Backtest ${r.data.id} started.`);
              let b = r.data;
              show(b);
              // A job: poll until it ends (a person watches; at most two minutes).
              for (let i = 0; i < 240 && (b.state === 'queued' || b.state === 'running'); i++) {
                await new Promise((resolve) => setTimeout(resolve, 500));
                const g = await get(`/v1/rules/backtests/${encodeURIComponent(b.id)}`);
                if (g.status !== 200) return say(problem(g));
                b = g.data;
                show(b);
              }
              say(`Backtest ${b.id} ${b.state}.`);
            },
          },
          h('label', null, 'From', h('input', { type: 'date', name: 'from', value: day(-30), required: true })),
          h('label', null, 'To', h('input', { type: 'date', name: 'to', value: day(0), required: true })),
          h('button', { type: 'submit' }, 'Backtest the draft'),
        )
      : h('p', null, 'Backtests are started by analysts and approvers.'),
    out,
  );
}

/** @param {(text: string) => void} say */
function shadowSection(say) {
  const out = h('div', { id: 'shadow-hits' }, h('p', null, 'Counting…'));
  void (async () => {
    const r = await get('/v1/transactions?limit=100');
    if (r.status !== 200) return say(problem(r));
    /** @type {Map<string, { key: string, hits: number, evaluated: number, last: string }>} */
    const byRule = new Map();
    for (const t of r.data.data)
      for (const o of t.rules) {
        const e = byRule.get(o.rule_id) ?? { key: o.key, hits: 0, evaluated: 0, last: '' };
        e.evaluated++;
        if (o.outcome === 'shadow_hit') {
          e.hits++;
          if (!e.last) e.last = t.reference;
        }
        byRule.set(o.rule_id, e);
      }
    const shadow = [...byRule.values()].filter((x) => x.hits > 0);
    mount(
      out,
      table(
        `Shadow hits in the last ${r.data.data.length} transactions (test rules: recorded, never counted)`,
        ['Rule', 'Shadow hits', 'Evaluated', 'Latest hit'],
        shadow.map((x) => [h('span', { class: 'shadow' }, x.key), x.hits, x.evaluated, x.last]),
      ),
    );
  })();
  return h('section', { 'aria-labelledby': 'shadow-h' }, h('h2', { id: 'shadow-h' }, 'Shadow hits (test mode)'), out);
}
