// API keys (admin only; the server refuses every other role): the account's keys in this environment,
// a new key with its scopes as checkboxes (the secret shown once, with a copy button), revoke with a
// confirmation. Through /v1/api-keys as the operator, like every other screen.
import { call, can, get, problem } from './api.js';
import { h, mount, table, when } from './dom.js';

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 * @param {any} [made] a key just made: its secret is shown this once
 */
export async function renderKeys(root, say, made = null) {
  if (!can('api_keys:read')) {
    mount(root, h('h1', { tabindex: '-1' }, 'API keys'), h('p', null, 'Only an admin manages API keys.'));
    return;
  }
  // The scope catalogue comes from the server (one source: src/platform/scopes.ts), asked with the keys.
  const [keys, catalogue] = await Promise.all([get('/v1/api-keys?limit=100'), get('/v1/api-keys/scopes')]);
  if (keys.status !== 200) return say(problem(keys));
  if (catalogue.status !== 200) return say(problem(catalogue));
  const write = can('api_keys:write');
  /** @param {any} [k] */
  const reload = (k) => renderKeys(root, say, k);
  const secret = made
    ? h(
        'div',
        { id: 'key-secret', class: 'secret', role: 'status' },
        h('p', null, h('strong', null, `Key ${made.name} (${made.id}): copy it now. It is shown once and cannot be shown again.`)),
        h('label', { for: 'new-key' }, 'New key'),
        h('input', { id: 'new-key', value: made.secret, readonly: true, spellcheck: 'false', autocomplete: 'off' }),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(made.secret);
                say('Key copied to the clipboard.');
              } catch {
                /** @type {HTMLInputElement} */ (document.getElementById('new-key')).select();
                say('Select the key and copy it (the browser refused the clipboard).');
              }
            },
          },
          'Copy key',
        ),
      )
    : null;
  const add = write
    ? h(
        'form',
        {
          id: 'key-add',
          'aria-label': 'Create a key',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
            const scopes = f.getAll('scope').map(String);
            if (scopes.length === 0) return say('Choose at least one scope.');
            const r = await call('POST', '/v1/api-keys', { name: String(f.get('name') ?? ''), scopes });
            if (r.status !== 201) return say(problem(r));
            await reload(r.data);
          },
        },
        h('h2', null, 'Create a key'),
        h('label', { for: 'key-name' }, 'Name'),
        h('input', { id: 'key-name', name: 'name', required: true, maxlength: '100' }),
        h(
          'fieldset',
          { class: 'scopes' },
          h('legend', null, 'Scopes'),
          catalogue.data.scopes.map((/** @type {string} */ s) =>
            h('label', null, h('input', { type: 'checkbox', name: 'scope', value: s }), ` ${s}`),
          ),
        ),
        h('button', { type: 'submit' }, 'Create key'),
      )
    : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'API keys'),
    secret,
    table(
      `Keys in ${keys.data.data[0]?.environment ?? 'this environment'}`,
      ['Name', 'Key', 'Scopes', 'Created by', 'Created', 'Revoked', 'Action'],
      keys.data.data.map((/** @type {any} */ k) => [
        k.name ?? '—',
        h('code', null, k.display),
        k.scopes.join(', '),
        k.created_by ? `${k.created_by.type}:${k.created_by.id}` : 'CLI',
        when(k.created_at),
        when(k.revoked_at) || '—',
        write && !k.revoked_at
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                onclick: async () => {
                  if (!window.confirm(`Revoke ${k.name ?? k.display}? Requests with it are refused at once.`)) return;
                  const r = await call('POST', `/v1/api-keys/${k.id}/revoke`, {});
                  if (r.status !== 200) return say(problem(r));
                  await reload();
                  say(`Revoked ${k.name ?? k.display}.`);
                },
              },
              `Revoke ${k.name ?? k.display}`,
            )
          : '',
      ]),
    ),
    add,
  );
}
