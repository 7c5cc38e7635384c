// Time charts drawn by uPlot (the npm package, served by the console's static route from
// node_modules: /console/assets/uplot.js, no CDN). A chart is a picture of numbers the page also
// gives as text or a table, so it is hidden from assistive technology (the figure's caption names it).
import uPlot from './uplot.js';
import { h } from './dom.js';

/** Colours with at least 4.5:1 contrast on white, in the order series take them. */
export const PALETTE = ['#0b57d0', '#146c2e', '#b3261e', '#8a5a00', '#6b21a8', '#0e7490', '#374151', '#be185d'];
const DAY_S = 86_400;

/**
 * Every UTC day from `from` to `to` (YYYY-MM-DD, both included) as unix seconds.
 * @param {string} from
 * @param {string} to
 */
export function dayAxis(from, to) {
  const start = Date.parse(`${from}T00:00:00Z`) / 1000;
  const end = Date.parse(`${to}T00:00:00Z`) / 1000;
  /** @type {number[]} */
  const xs = [];
  for (let t = start; t <= end; t += DAY_S) xs.push(t);
  return xs;
}

/**
 * A line chart over days that follows its container's width.
 * @param {{ id: string, caption: string, days: number[], series: { label: string, values: (number | null)[], color?: string }[], percent?: boolean, height?: number }} o
 */
export function dayChart(o) {
  const plot = h('div', { class: 'chart', 'aria-hidden': 'true' });
  const figure = h('figure', { id: o.id, class: 'chart-figure' }, h('figcaption', null, o.caption), plot);
  /** @type {uPlot.Options} */
  const opts = {
    width: 600,
    height: o.height ?? 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: o.percent ? { range: [0, 100] } : { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [{}, { values: (_u, ticks) => ticks.map((v) => (o.percent ? `${v} %` : String(v))) }],
    legend: { show: true, live: false },
    series: [
      { label: 'Day' },
      ...o.series.map((s, i) => ({
        label: s.label,
        stroke: s.color ?? PALETTE[i % PALETTE.length],
        width: 2,
        points: { show: true, size: 5 },
        spanGaps: false,
      })),
    ],
  };
  /** @type {uPlot.AlignedData} */
  const data = [o.days, ...o.series.map((s) => s.values)];
  /** @type {uPlot | null} */
  let chart = null;
  // Drawn once the figure is in the page and sized to it; redrawn at the new width when it changes.
  const observer = new ResizeObserver(() => {
    const width = Math.max(240, Math.floor(plot.clientWidth));
    if (!chart) chart = new uPlot({ ...opts, width }, data, plot);
    else if (Math.abs(chart.width - width) > 1) chart.setSize({ width, height: opts.height });
  });
  observer.observe(plot);
  figure.dataset.points = String(o.days.length);
  return figure;
}
