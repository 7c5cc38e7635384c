// A business's ownership graph drawn as layered boxes and arrows, with our own small layout (no graph
// library): the business at the bottom, each owner one layer above the nearest thing it owns (layer =
// shortest distance from the business along ownership edges), boxes in a layer ordered by where what
// they own sits (one barycentre pass, which removes most crossings of register-sized graphs). Arrows
// point from owner to owned and carry the shares (ranges stay ranges); UBOs are highlighted and the
// edges of ownership cycles marked. The SVG is an image with a text alternative; the tables beside it
// (businesses.js) carry the same facts for screen readers.

const SVG = 'http://www.w3.org/2000/svg';
const BOX_W = 190;
const BOX_H = 50;
const GAP_X = 36;
const GAP_Y = 92;
const PAD = 16;
const BACK_MARGIN = 200;

/**
 * @typedef {{ exact?: number, minimum?: number, exclusive_minimum?: number, maximum?: number, exclusive_maximum?: number }} Share
 * @typedef {{ type: string | null, direct_or_indirect: string, share: Share | null }} Interest
 * @typedef {{ id: string, kind: string, type: string | null, name: string | null, unspecified_reason: string | null, is_subject: boolean }} GraphNode
 * @typedef {{ id: string, from: string, to: string, interests: Interest[], is_component: boolean, component_edge_ids: string[] }} GraphEdge
 * @typedef {{ node: GraphNode, layer: number, x: number, y: number }} Placed
 */

/** @param {number} n */
const num = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, ''));

/**
 * A share as a person reads it: "80 %", a range "> 25 – 50 %" (exclusive bounds written > and <).
 * @param {Share | null | undefined} s
 */
export function shareText(s) {
  if (!s) return '';
  if (s.exact !== undefined) return `${num(s.exact)} %`;
  const lo = s.exclusive_minimum !== undefined ? `> ${num(s.exclusive_minimum)}` : s.minimum !== undefined ? num(s.minimum) : null;
  const hi = s.exclusive_maximum !== undefined ? `< ${num(s.exclusive_maximum)}` : s.maximum !== undefined ? num(s.maximum) : null;
  if (lo !== null && hi !== null) return `${lo} – ${hi} %`;
  if (lo !== null) return `${lo.startsWith('>') ? lo : `≥ ${lo}`} %`;
  if (hi !== null) return `${hi.startsWith('<') ? hi : `≤ ${hi}`} %`;
  return '';
}

/** @type {Record<string, string>} */
const INTEREST = { shareholding: 'shares', votingRights: 'votes', appointmentOfBoard: 'board', otherInfluenceOrControl: 'control' };

/**
 * An edge's label: each interest's kind and share ("shares 80 %; votes > 25 – 50 %").
 * @param {GraphEdge} e
 */
export function edgeText(e) {
  const parts = e.interests.map((i) => {
    const kind = (i.type && INTEREST[i.type]) ?? i.type ?? 'interest';
    const share = shareText(i.share);
    return share ? `${kind} ${share}` : kind;
  });
  return [...new Set(parts)].join('; ') || 'interest';
}

/**
 * Layers and positions. Nodes that own nothing reachable from the business (a graph cut by the load
 * bound) go to one layer above the rest, so nothing is dropped.
 * @param {GraphNode[]} nodes
 * @param {GraphEdge[]} edges
 * @returns {{ placed: Map<string, Placed>, width: number, height: number, layers: number }}
 */
export function layout(nodes, edges) {
  const subject = nodes.find((n) => n.is_subject) ?? nodes[0];
  /** @type {Map<string, string[]>} owned → its owners */
  const owners = new Map();
  for (const e of edges) owners.set(e.to, [...(owners.get(e.to) ?? []), e.from]);
  /** @type {Map<string, number>} */
  const layer = new Map();
  if (subject) layer.set(subject.id, 0);
  const queue = subject ? [subject.id] : [];
  for (let i = 0; i < queue.length; i++) {
    const at = /** @type {string} */ (queue[i]);
    for (const o of owners.get(at) ?? []) {
      if (layer.has(o)) continue;
      layer.set(o, /** @type {number} */ (layer.get(at)) + 1);
      queue.push(o);
    }
  }
  const top = Math.max(0, ...layer.values());
  for (const n of nodes) if (!layer.has(n.id)) layer.set(n.id, top + 1);
  const count = Math.max(0, ...layer.values()) + 1;

  /** @type {GraphNode[][]} */
  const rows = Array.from({ length: count }, () => []);
  for (const n of nodes) rows[/** @type {number} */ (layer.get(n.id))]?.push(n);
  /** @type {Map<string, string[]>} owner → what it owns */
  const owns = new Map();
  for (const e of edges) owns.set(e.from, [...(owns.get(e.from) ?? []), e.to]);
  /** @type {Map<string, number>} index within its layer */
  const index = new Map();
  rows.forEach((row, l) => {
    if (l > 0) {
      // Barycentre of what each owns in the layers below (already ordered); unplaced ones keep their order.
      const centre = (/** @type {GraphNode} */ n) => {
        const below = (owns.get(n.id) ?? []).map((t) => index.get(t)).filter((x) => x !== undefined);
        return below.length ? below.reduce((a, b) => a + /** @type {number} */ (b), 0) / below.length : Number.POSITIVE_INFINITY;
      };
      const keyed = row.map((n, i) => ({ n, i, c: centre(n) }));
      keyed.sort((a, b) => a.c - b.c || a.i - b.i);
      row.splice(0, row.length, ...keyed.map((k) => k.n));
    }
    row.forEach((n, i) => index.set(n.id, i));
  });

  const widest = Math.max(1, ...rows.map((r) => r.length));
  const inner = PAD * 2 + widest * BOX_W + (widest - 1) * GAP_X;
  // Edges that do not point down (a cycle's way back) bow out on the right: room for them and their labels.
  const back = edges.some((e) => (layer.get(e.from) ?? 0) <= (layer.get(e.to) ?? 0));
  const width = inner + (back ? BACK_MARGIN : 0);
  const height = PAD * 2 + count * BOX_H + (count - 1) * GAP_Y;
  /** @type {Map<string, Placed>} */
  const placed = new Map();
  rows.forEach((row, l) => {
    const rowWidth = row.length * BOX_W + (row.length - 1) * GAP_X;
    const x0 = (inner - rowWidth) / 2;
    row.forEach((n, i) =>
      placed.set(n.id, { node: n, layer: l, x: x0 + i * (BOX_W + GAP_X), y: height - PAD - BOX_H - l * (BOX_H + GAP_Y) }),
    );
  });
  return { placed, width, height, layers: count };
}

/**
 * The set of edges that lie on a reported cycle: a cycle [a, b, a] is read upwards (b owns a, a owns b).
 * @param {GraphEdge[]} edges
 * @param {string[][]} cycles
 */
export function cycleEdges(edges, cycles) {
  /** @type {Set<string>} */
  const pairs = new Set();
  for (const c of cycles) for (let i = 0; i + 1 < c.length; i++) pairs.add(`${c[i + 1]}\u0000${c[i]}`);
  return new Set(edges.filter((e) => pairs.has(`${e.from}\u0000${e.to}`)).map((e) => e.id));
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {(Element | string)[]} children
 */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** @param {string} t @param {number} max */
const clip = (t, max) => (t.length > max ? `${t.slice(0, max - 1)}…` : t);

/** @param {GraphNode} n */
export const nodeName = (n) => n.name ?? (n.unspecified_reason ? `Unknown (${n.unspecified_reason})` : n.id);

/**
 * The graph as an SVG element.
 * @param {{ nodes: GraphNode[], edges: GraphEdge[] }} graph
 * @param {{ ubos: Set<string>, possibleUbos: Set<string>, cycles: string[][], title: string }} o
 */
export function ownershipSvg(graph, o) {
  const { placed, width, height } = layout(graph.nodes, graph.edges);
  const onCycle = cycleEdges(graph.edges, o.cycles);
  const inCycle = new Set(o.cycles.flat());
  const svg = s('svg', {
    xmlns: SVG,
    viewBox: `0 0 ${width} ${height}`,
    width: '100%',
    style: `max-width: ${width}px`,
    role: 'img',
    'aria-labelledby': 'graph-title graph-desc',
    class: 'ownership-graph',
  });
  svg.append(
    s('title', { id: 'graph-title' }, o.title),
    s(
      'desc',
      { id: 'graph-desc' },
      `${graph.nodes.length} parties and ${graph.edges.length} ownership relationships; ${o.ubos.size} beneficial owners; ${o.cycles.length} cycles. The tables below list the same.`,
    ),
    s(
      'defs',
      {},
      s(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#374151' }),
      ),
      s(
        'marker',
        { id: 'arrow-cycle', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#b3261e' }),
      ),
    ),
  );
  for (const e of graph.edges) {
    const a = placed.get(e.from);
    const b = placed.get(e.to);
    if (!a || !b) continue;
    const cyc = onCycle.has(e.id);
    const indirect = e.interests.length > 0 && e.interests.every((i) => i.direct_or_indirect === 'indirect');
    let d;
    let lx;
    let ly;
    let anchor = 'middle';
    if (a.layer > b.layer) {
      // Downwards, from the owner's bottom edge to the owned's top edge.
      const x1 = a.x + BOX_W / 2;
      const y1 = a.y + BOX_H;
      const x2 = b.x + BOX_W / 2;
      const y2 = b.y;
      d = `M${x1},${y1} C${x1},${y1 + GAP_Y / 2} ${x2},${y2 - GAP_Y / 2} ${x2},${y2}`;
      lx = (x1 + x2) / 2;
      ly = (y1 + y2) / 2;
    } else if (a.layer < b.layer) {
      // Upwards (a cycle's way back): from the owner's top, right of centre, into the owned's right side,
      // through the gap between the layers rather than across the boxes beside the owner.
      const x1 = a.x + (3 * BOX_W) / 4;
      const y1 = a.y;
      const x2 = b.x + BOX_W;
      const y2 = b.y + BOX_H / 2;
      const bow = Math.max(x1, x2) + GAP_X;
      d = `M${x1},${y1} C${x1},${y1 - GAP_Y / 2} ${bow},${y2} ${x2},${y2}`;
      lx = bow - 8;
      anchor = 'start';
      ly = (y1 + y2) / 2;
    } else {
      // Sideways (an owner of something in its own layer): a bow on the right.
      const x1 = a.x + BOX_W;
      const y1 = a.y + BOX_H / 3;
      const x2 = b.x + BOX_W;
      const y2 = b.y + (2 * BOX_H) / 3;
      const bow = Math.max(x1, x2) + GAP_X;
      d = `M${x1},${y1} C${bow},${y1} ${bow},${y2} ${x2},${y2}`;
      lx = bow + 4;
      anchor = 'start';
      ly = (y1 + y2) / 2;
    }
    const text = `${edgeText(e)}${cyc ? ' (cycle)' : ''}`;
    svg.append(
      s(
        'g',
        { class: `edge${cyc ? ' cycle' : ''}${indirect ? ' indirect' : ''}`, 'data-from': e.from, 'data-to': e.to },
        s('title', {}, `${nodeName(a.node)} → ${nodeName(b.node)}: ${text}`),
        s('path', { d, fill: 'none', 'marker-end': `url(#${cyc ? 'arrow-cycle' : 'arrow'})` }),
        s('text', { x: lx, y: ly, 'text-anchor': anchor, class: 'share' }, clip(text, 30)),
      ),
    );
  }
  for (const p of placed.values()) {
    const n = p.node;
    const ubo = o.ubos.has(n.id);
    const possible = !ubo && o.possibleUbos.has(n.id);
    const cls = [
      'node',
      n.kind,
      n.is_subject ? 'subject' : '',
      ubo ? 'ubo' : '',
      possible ? 'ubo-possible' : '',
      inCycle.has(n.id) ? 'in-cycle' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const tag = n.is_subject
      ? 'the business'
      : ubo
        ? 'UBO'
        : possible
          ? 'possible UBO'
          : n.kind === 'person'
            ? 'person'
            : n.kind === 'entity'
              ? 'entity'
              : 'unknown';
    svg.append(
      s(
        'g',
        { class: cls, 'data-node': n.id, transform: `translate(${p.x},${p.y})` },
        s('title', {}, `${nodeName(n)} (${tag}${inCycle.has(n.id) ? ', in an ownership cycle' : ''})`),
        s('rect', { width: BOX_W, height: BOX_H, rx: n.kind === 'person' ? 22 : 4 }),
        s('text', { x: BOX_W / 2, y: 21, 'text-anchor': 'middle', class: 'name' }, clip(nodeName(n), 24)),
        s('text', { x: BOX_W / 2, y: 39, 'text-anchor': 'middle', class: 'tag' }, `${tag}${inCycle.has(n.id) ? ' · cycle' : ''}`),
      ),
    );
  }
  return svg;
}
