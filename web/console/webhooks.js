// Webhooks: destinations (add, send a test event, rotate the secret: shown once) and deliveries with
// their attempts and a retry (POST /v1/webhook-deliveries/{id}/redeliver), through /v1.
import { call, can, get, problem } from './api.js';
import { h, mount, table, when } from './dom.js';

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 * @param {string} [notice] a new signing secret to show (once)
 */
export async function renderWebhooks(root, say, notice = '') {
  const [dests, deliveries] = await Promise.all([get('/v1/webhooks?limit=100'), get('/v1/webhook-deliveries?limit=50')]);
  if (dests.status !== 200) return say(problem(dests));
  /** @param {string} [text] */
  const reload = (text) => renderWebhooks(root, say, text);
  const write = can('webhooks:write');
  const secret = h('p', { id: 'webhook-secret', role: 'status' }, notice);
  /** @param {any} r */
  const secretOf = (r) => `Signing secret of ${r.data.id} (shown once, copy it now): ${r.data.secret}`;
  /** @param {string} text @param {() => Promise<void>} run */
  const button = (text, run) => h('button', { type: 'button', class: 'secondary', onclick: run }, text);
  const add = write
    ? h(
        'form',
        {
          id: 'webhook-add',
          'aria-label': 'Add a destination',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
            const types = String(f.get('event_types') ?? '*')
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
            const r = await call('POST', '/v1/webhooks', { url: String(f.get('url') ?? ''), event_types: types.length ? types : ['*'] });
            if (r.status !== 201 && r.status !== 200) return say(problem(r));
            await reload(secretOf(r));
            say(`Added ${r.data.url}.`);
          },
        },
        h('h2', null, 'Add a destination'),
        h('label', { for: 'wh-url' }, 'URL'),
        h('input', { id: 'wh-url', name: 'url', type: 'url', required: true }),
        h('label', { for: 'wh-types' }, 'Event types (comma-separated, * for all)'),
        h('input', { id: 'wh-types', name: 'event_types', value: '*' }),
        h('button', { type: 'submit' }, 'Add destination'),
      )
    : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Webhooks'),
    secret,
    table(
      'Destinations',
      ['URL', 'Events', 'Enabled', 'Failures in a row', 'Last success', 'Actions'],
      dests.data.data.map((/** @type {any} */ d) => [
        d.url,
        d.event_types.join(', '),
        d.enabled ? 'yes' : `no${d.disabled_reason ? ` (${d.disabled_reason})` : ''}`,
        d.consecutive_failures,
        when(d.last_success_at) || '—',
        write
          ? h(
              'div',
              { class: 'actions' },
              button(`Send test to ${d.url}`, async () => {
                const r = await call('POST', `/v1/webhooks/${d.id}/test`, {});
                if (r.status >= 300) return say(problem(r));
                say('Test event queued.');
                await reload();
              }),
              button(`Rotate secret of ${d.url}`, async () => {
                const r = await call('POST', `/v1/webhooks/${d.id}/rotate-secret`, {});
                if (r.status !== 200) return say(problem(r));
                await reload(secretOf(r));
              }),
            )
          : '',
      ]),
    ),
    deliveries.status === 200
      ? h(
          'div',
          { id: 'deliveries' },
          table(
            'Deliveries (newest first)',
            ['Delivery', 'Event', 'State', 'Attempts', 'Last status', 'Last error', 'Created', 'Action'],
            deliveries.data.data.map((/** @type {any} */ d) => [
              d.id,
              d.event_type,
              d.state,
              h(
                'details',
                null,
                h('summary', null, String(d.attempts)),
                h(
                  'ol',
                  null,
                  (d.attempt_log ?? []).map((/** @type {any} */ a) =>
                    h('li', null, `#${a.attempt} ${when(a.started_at)} · ${a.status_code ?? a.error ?? ''} · ${a.duration_ms} ms`),
                  ),
                ),
              ),
              d.last_status ?? '—',
              d.last_error ?? '—',
              when(d.created_at),
              write
                ? button(`Retry ${d.id}`, async () => {
                    const r = await call('POST', `/v1/webhook-deliveries/${d.id}/redeliver`, {});
                    if (r.status >= 300) return say(problem(r));
                    say(`Redelivery ${r.data.id} queued.`);
                    await reload();
                  })
                : '',
            ]),
          ),
        )
      : null,
    add,
  );
}
