// A small DOM helper for the console's views: h('tag', props, ...children) builds real elements.
// Plain DOM (no framework, no build step): see docs/architecture.md "The console's front end".

/** @typedef {Node | string | number | null | undefined | false | any[]} Child */

/**
 * @param {string} tag
 * @param {Record<string, any> | null} [props] attributes; `on<event>` keys add listeners; `class`, `for`, `hidden`, `value` as usual
 * @param {Child[]} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'value') /** @type {HTMLInputElement} */ (el).value = String(v);
    else if (k === 'checked') /** @type {HTMLInputElement} */ (el).checked = Boolean(v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(typeof c === 'object' ? c : String(c));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {Child[]} children
 */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** @param {string | null | undefined} iso */
export function ago(iso) {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

/** @param {string | null | undefined} iso */
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

/** @param {string} s */
export const label = (s) =>
  s
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/**
 * A table with a caption and column headers (scope="col").
 * @param {string} caption
 * @param {string[]} columns
 * @param {Child[][]} rows
 */
export function table(caption, columns, rows) {
  return h(
    'table',
    null,
    h('caption', null, caption),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        columns.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.length
        ? rows.map((r) =>
            h(
              'tr',
              null,
              r.map((c) => h('td', null, c)),
            ),
          )
        : h('tr', null, h('td', { colspan: columns.length }, 'None.')),
    ),
  );
}

/**
 * A labelled filter: a select bound to `state[name]`, calling `changed` after each choice.
 * @param {Record<string, string>} state
 * @param {string} name
 * @param {string} text
 * @param {ReadonlyArray<readonly [string, string]>} options
 * @param {() => void} changed
 */
export function filterSelect(state, name, text, options, changed) {
  return h(
    'label',
    null,
    text,
    h(
      'select',
      {
        name,
        onchange: (/** @type {Event} */ e) => {
          state[name] = /** @type {HTMLSelectElement} */ (e.target).value;
          changed();
        },
      },
      options.map(([v, t]) => h('option', { value: v, selected: state[name] === v }, t)),
    ),
  );
}
