// A business (GET /v1/businesses/{id} and /ubos): its register facts, the ownership graph drawn as
// layered boxes and arrows (ownership-graph.js) with the beneficial owners highlighted and cycles
// marked, and the same facts as tables (owners with their shares and paths, relationships, cycles,
// what could not be resolved). #/businesses asks for a business id.
import { get, problem } from './api.js';
import { h, label, mount, table, when } from './dom.js';
import { edgeText, nodeName, ownershipSvg, shareText } from './ownership-graph.js';

/**
 * @param {HTMLElement} root
 */
export function renderBusinessLookup(root) {
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Businesses'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Open a business',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const id = String(new FormData(/** @type {HTMLFormElement} */ (e.target)).get('id') ?? '').trim();
          if (id) location.hash = `#/businesses/${encodeURIComponent(id)}`;
        },
      },
      h('label', null, 'Business id', h('input', { name: 'id', placeholder: 'biz_…', required: true })),
      h('button', { type: 'submit' }, 'Open'),
    ),
    h('p', null, 'Business cases (ownership and screening) link here from the review queue.'),
  );
}

/**
 * @param {HTMLElement} root
 * @param {string} id
 * @param {(text: string) => void} say
 */
export async function renderBusiness(root, id, say) {
  const path = `/v1/businesses/${encodeURIComponent(id)}`;
  const [b, u] = await Promise.all([get(path), get(`${path}/ubos`)]);
  if (b.status !== 200) return mount(root, h('h1', { tabindex: '-1' }, `Business ${id}`), h('p', null, problem(b)));
  if (u.status !== 200) say(problem(u));
  const biz = b.data;
  const ubos = u.status === 200 ? u.data : { owners: [], unresolved: [], cycles: [], senior_managing_officials: [], threshold: 25 };
  /** @type {Map<string, any>} */
  const nodes = new Map(biz.ownership.nodes.map((/** @type {any} */ n) => [n.id, n]));
  const nameOf = (/** @type {string} */ nid) => (nodes.has(nid) ? nodeName(nodes.get(nid)) : nid);
  const qualifying = new Set(ubos.owners.filter((/** @type {any} */ o) => o.qualifies).map((/** @type {any} */ o) => o.node_id));
  const possible = new Set(ubos.owners.filter((/** @type {any} */ o) => o.possibly_qualifies).map((/** @type {any} */ o) => o.node_id));
  /** @type {string[][]} */
  const cycles = [...new Map(ubos.cycles.map((/** @type {string[]} */ c) => [[...c].sort().join(' '), c])).values()];

  mount(
    root,
    h('h1', { tabindex: '-1' }, biz.name),
    h(
      'dl',
      { class: 'summary' },
      h('dt', null, 'Id'),
      h('dd', null, biz.id),
      h('dt', null, 'Register'),
      h('dd', null, `${biz.source} ${biz.registration_number ?? biz.lei ?? biz.source_ref}`),
      h('dt', null, 'Country'),
      h('dd', null, biz.country ?? biz.jurisdiction ?? '—'),
      h('dt', null, 'Status'),
      h('dd', null, biz.status ?? '—'),
      h('dt', null, 'Beneficial owners'),
      h('dd', { id: 'ubo-summary' }, `${qualifying.size} above ${ubos.threshold} %${possible.size ? `, ${possible.size} possibly` : ''}`),
      h('dt', null, 'Updated'),
      h('dd', null, when(biz.updated_at)),
    ),
    h('h2', null, 'Ownership graph'),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'key ubo' }, 'UBO'),
      h('span', { class: 'key ubo-possible' }, 'possible UBO'),
      h('span', { class: 'key subject' }, 'this business'),
      h('span', { class: 'key cycle' }, 'cycle'),
      ' Arrows point from owner to owned; ranges are shown as ranges (> means more than).',
    ),
    biz.ownership.truncated ? h('p', { class: 'bad' }, 'The graph is larger than the load bound and is cut.') : null,
    biz.ownership.nodes.length
      ? h(
          'div',
          { class: 'graph-frame', id: 'ownership-graph' },
          ownershipSvg(biz.ownership, { ubos: qualifying, possibleUbos: possible, cycles, title: `Ownership of ${biz.name}` }),
        )
      : h('p', null, 'The register gives no ownership for this business.'),
    cycles.length
      ? h(
          'ul',
          { id: 'cycles', class: 'bad', 'aria-label': 'Ownership cycles' },
          cycles.map((c) => h('li', null, `Cycle: ${c.map(nameOf).join(' → ')}`)),
        )
      : null,
    table(
      `Beneficial owners (threshold ${ubos.threshold} %, basis ${ubos.basis ?? 'any'})`,
      ['Owner', 'Qualifies', 'Ownership', 'Voting', 'Control', 'Basis', 'Paths'],
      ubos.owners.map((/** @type {any} */ o) => [
        o.name ?? nameOf(o.node_id),
        o.qualifies ? h('strong', null, 'yes') : o.possibly_qualifies ? 'possibly' : 'no',
        shareText(o.ownership) || '—',
        shareText(o.voting) || '—',
        o.control.map(label).join(', ') || '—',
        o.figure_basis,
        o.paths.map((/** @type {any} */ p) => p.node_ids.map(nameOf).join(' → ')).join('; '),
      ]),
    ),
    table(
      'Relationships (owner → owned)',
      ['Owner', 'Owned', 'Interests', 'Direct'],
      biz.ownership.edges.map((/** @type {any} */ e) => [
        nameOf(e.from),
        nameOf(e.to),
        edgeText(e),
        [...new Set(e.interests.map((/** @type {any} */ i) => i.direct_or_indirect))].join(', ') || '—',
      ]),
    ),
    ubos.unresolved.length
      ? table(
          'Not resolved to a person',
          ['Party', 'Reason', 'Detail', 'Ownership'],
          ubos.unresolved.map((/** @type {any} */ x) => [
            x.name ?? nameOf(x.node_id),
            label(x.reason),
            x.detail ?? '',
            shareText(x.ownership) || '—',
          ]),
        )
      : null,
  );
}
