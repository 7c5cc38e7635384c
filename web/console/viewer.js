// An image with zoom and pan: buttons, the mouse wheel, dragging, and the keyboard (+, -, 0, arrows)
// when the picture has focus. The image is fetched through /v1 (GET /v1/checks/{id}/media/{media_id},
// audited) and shown from an object URL.
import { blobUrl } from './api.js';
import { h } from './dom.js';

/**
 * @param {string} src the /v1 path of the image
 * @param {string} caption what it is (e.g. "Document front"), also the image's alt text
 */
export function zoomable(src, caption) {
  let scale = 1;
  let x = 0;
  let y = 0;
  const img = /** @type {HTMLImageElement} */ (h('img', { alt: caption, draggable: 'false' }));
  const status = h('span', { class: 'zoom-level', 'aria-live': 'polite' }, '100 %');
  const apply = () => {
    img.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    status.textContent = `${Math.round(scale * 100)} %`;
  };
  /** @param {number} f */
  const zoom = (f) => {
    scale = Math.min(8, Math.max(1, scale * f));
    if (scale === 1) x = y = 0;
    apply();
  };
  /** @param {number} dx @param {number} dy */
  const pan = (dx, dy) => {
    if (scale === 1) return;
    x += dx;
    y += dy;
    apply();
  };
  const frame = h(
    'div',
    {
      class: 'zoom-frame',
      tabindex: '0',
      role: 'img',
      'aria-label': `${caption}: use plus and minus to zoom, arrow keys to pan, 0 to reset`,
      onwheel: (/** @type {WheelEvent} */ e) => {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 1.25 : 0.8);
      },
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        /** @type {Record<string, () => void>} */
        const keys = {
          '+': () => zoom(1.25),
          '=': () => zoom(1.25),
          '-': () => zoom(0.8),
          0: () => zoom(0),
          ArrowLeft: () => pan(40, 0),
          ArrowRight: () => pan(-40, 0),
          ArrowUp: () => pan(0, 40),
          ArrowDown: () => pan(0, -40),
        };
        const k = keys[e.key];
        if (k) {
          e.preventDefault();
          k();
        }
      },
      onpointerdown: (/** @type {PointerEvent} */ e) => {
        const start = { px: e.clientX, py: e.clientY, x, y };
        const el = /** @type {HTMLElement} */ (e.currentTarget);
        el.setPointerCapture(e.pointerId);
        /** @param {PointerEvent} m */
        const move = (m) => {
          if (scale === 1) return;
          x = start.x + m.clientX - start.px;
          y = start.y + m.clientY - start.py;
          apply();
        };
        const up = () => {
          el.removeEventListener('pointermove', /** @type {any} */ (move));
          el.removeEventListener('pointerup', up);
        };
        el.addEventListener('pointermove', /** @type {any} */ (move));
        el.addEventListener('pointerup', up);
      },
    },
    img,
  );
  void blobUrl(src).then((url) => {
    if (url) img.src = url;
    else img.alt = `${caption}: not available (removed under the retention policy, or not stored)`;
  });
  return h(
    'figure',
    { class: 'zoomable' },
    frame,
    h(
      'figcaption',
      null,
      caption,
      ' ',
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Zoom in on ${caption}`, onclick: () => zoom(1.25) }, '+'),
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Zoom out of ${caption}`, onclick: () => zoom(0.8) }, '−'),
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Reset zoom of ${caption}`, onclick: () => zoom(0) }, 'Reset'),
      ' ',
      status,
    ),
  );
}
