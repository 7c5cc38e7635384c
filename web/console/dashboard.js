// The dashboard (the review backlog: open cases by kind, and how many are past the SLA, with bars;
// decisions per day and the approval rate over the last 30 days, charted) and usage (per-module counts
// over a billing period, with bars and a per-day chart). Backlog counts come from GET /v1/cases/backlog;
// the charts from GET /v1/verifications/decision-stats and GET /v1/usage's days.
import { can, get, problem, session } from './api.js';
import { dayAxis, dayChart } from './charts.js';
import { ago, h, label, mount, table } from './dom.js';

/**
 * A horizontal bar: its length is value / max; the number is written beside it (the table is the data).
 * @param {number} value
 * @param {number} max
 * @param {string} [cls]
 */
const bar = (value, max, cls = '') =>
  h('span', { class: `bar ${cls}`, style: { width: `${max ? Math.max(2, Math.round((100 * value) / max)) : 0}%` }, 'aria-hidden': 'true' });

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderDashboard(root, say) {
  mount(root, h('h1', { tabindex: '-1' }, 'Dashboard'), h('p', null, 'Counting…'));
  const slaHours = session.me?.review_sla_hours ?? 24;
  // One grouped read of the open cases (GET /v1/cases/backlog), whatever the backlog's size.
  // The backlog and the decision figures are asked for together.
  const [backlog, stats] = await Promise.all([
    get(`/v1/cases/backlog?sla_hours=${encodeURIComponent(String(slaHours))}`),
    can('verifications:read') ? get('/v1/verifications/decision-stats') : null,
  ]);
  if (backlog.status !== 200) return say(problem(backlog));
  /** @type {{ kind: string, open: number, past_sla: number, oldest_created_at: string | null }[]} */
  const rows = backlog.data.kinds;
  const max = Math.max(1, ...rows.map((r) => r.open));
  const total = backlog.data.open;
  const overdue = backlog.data.past_sla;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Dashboard'),
    h('p', { id: 'backlog' }, `Open cases: ${total} · past the ${slaHours} h SLA: ${overdue}`),
    table(
      'Review backlog by kind (open cases)',
      ['Kind', 'Open', 'Within SLA', 'Past SLA', 'Oldest', 'Backlog'],
      rows.map((r) => [
        h('a', { href: '#/queue' }, label(r.kind)),
        r.open,
        r.open - r.past_sla,
        h('span', { class: r.past_sla ? 'overdue' : '' }, String(r.past_sla)),
        r.oldest_created_at ? ago(r.oldest_created_at) : '—',
        h('span', { class: 'bars' }, bar(r.open - r.past_sla, max, 'in-sla'), bar(r.past_sla, max, 'overdue')),
      ]),
    ),
    stats && stats.status === 200 ? decisions(stats.data) : stats ? h('p', null, problem(stats)) : null,
  );
}

/** @param {number | null} r */
const percent = (r) => (r === null ? '—' : `${(r * 100).toFixed(1)} %`);

/**
 * Decisions per day and the approval rate: two charts and the figures they draw, in words.
 * @param {any} s GET /v1/verifications/decision-stats
 */
function decisions(s) {
  const days = dayAxis(s.from, s.to);
  /** @param {'approved' | 'declined' | 'referred'} k */
  const values = (k) => s.days.map((/** @type {any} */ d) => d[k]);
  return h(
    'section',
    { id: 'decisions', 'aria-labelledby': 'decisions-title' },
    h('h2', { id: 'decisions-title' }, `Decisions, ${s.from} to ${s.to}`),
    h(
      'p',
      { id: 'decision-totals' },
      `Approved ${s.approved} · declined ${s.declined} · referred ${s.referred} · approval rate ${percent(s.approval_rate)}`,
    ),
    h(
      'div',
      { class: 'charts' },
      dayChart({
        id: 'decisions-chart',
        caption: 'Decisions per day',
        days,
        series: [
          { label: 'Approved', values: values('approved'), color: '#146c2e' },
          { label: 'Declined', values: values('declined'), color: '#b3261e' },
          { label: 'Referred', values: values('referred'), color: '#8a5a00' },
        ],
      }),
      dayChart({
        id: 'approval-chart',
        caption: 'Approval rate per day (approved of approved and declined)',
        days,
        percent: true,
        series: [
          {
            label: 'Approval rate',
            values: s.days.map((/** @type {any} */ d) => (d.approval_rate === null ? null : Math.round(d.approval_rate * 1000) / 10)),
            color: '#0b57d0',
          },
        ],
      }),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 * @param {string} [period] YYYY-MM
 */
export async function renderUsage(root, say, period) {
  const r = await get(`/v1/usage${period ? `?period=${encodeURIComponent(period)}` : ''}`);
  if (r.status !== 200) return say(problem(r));
  const u = r.data;
  const max = Math.max(1, ...u.modules.map((/** @type {any} */ m) => m.count));
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Usage'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Billing period',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
          void renderUsage(root, say, String(f.get('period') ?? ''));
        },
      },
      h('label', null, 'Period', h('input', { type: 'month', name: 'period', value: u.period })),
      h('button', { type: 'submit', class: 'secondary' }, 'Show'),
    ),
    h('p', { id: 'usage-total' }, `${u.period} · ${u.environment} · ${u.total} billable operations`),
    usageChart(u),
    table(
      'Operations per module',
      ['Module', 'Count', 'Operations', 'Share'],
      u.modules.map((/** @type {any} */ m) => [
        m.module,
        m.count,
        m.operations.map((/** @type {any} */ o) => `${o.operation}: ${o.count}`).join(', '),
        h('span', { class: 'bars' }, bar(m.count, max)),
      ]),
    ),
  );
}

/**
 * Operations per module and day over the billing period (to today for the current one).
 * @param {any} u GET /v1/usage
 */
function usageChart(u) {
  const last = new Date(Math.min(Date.parse(u.period_end) - 86_400_000, Date.now())).toISOString().slice(0, 10);
  const first = u.period_start.slice(0, 10);
  if (last < first) return null;
  const days = dayAxis(first, last);
  /** @type {Map<string, any>} */
  const byDate = new Map(u.days.map((/** @type {any} */ d) => [d.date, d]));
  const dates = days.map((t) => new Date(t * 1000).toISOString().slice(0, 10));
  return dayChart({
    id: 'usage-chart',
    caption: `Operations per module and day, ${first} to ${last}`,
    days,
    series: u.modules.map((/** @type {any} */ m) => ({
      label: m.module,
      values: dates.map((d) => byDate.get(d)?.modules[m.module] ?? 0),
    })),
  });
}
