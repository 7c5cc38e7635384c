// Journeys: the list with versions per environment, one journey's versions, an editor that saves a new
// draft version (versions are never edited in place; a 400's `field` is shown at the definition), and
// publish (journeys:publish, the approver; the server refuses the author of the version: maker-checker).
import { actorName, call, can, get, problem, session } from './api.js';
import { h, mount, table, when } from './dom.js';

/**
 * @param {HTMLElement} root
 * @param {(text: string) => void} say
 */
export async function renderJourneys(root, say) {
  const r = await get('/v1/journeys?limit=100');
  if (r.status !== 200) return say(problem(r));
  const journeys = /** @type {any[]} */ (r.data.data);
  // A new journey starts as a draft copy of an existing one's newest version; the approver publishes it.
  const create =
    can('journeys:write') && journeys.length
      ? h(
          'form',
          {
            id: 'journey-new',
            'aria-label': 'New journey',
            onsubmit: async (/** @type {SubmitEvent} */ e) => {
              e.preventDefault();
              const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
              const from = journeys.find((j) => j.key === f.get('from'));
              const key = String(f.get('key') ?? '');
              const res = await call('POST', '/v1/journeys', {
                key,
                name: String(f.get('name') ?? ''),
                definition: from.versions[0].definition,
              });
              if (res.status !== 201 && res.status !== 200) return say(problem(res));
              // The router clears the status line on hashchange: say it after that.
              window.addEventListener('hashchange', () => say(`Created journey ${key}: draft version ${res.data.latest_version}.`), {
                once: true,
              });
              location.hash = `#/journeys/${encodeURIComponent(key)}`;
            },
          },
          h('h2', null, 'New journey'),
          h('label', { for: 'new-journey-key' }, 'Key (lower case, digits and _)'),
          h('input', { id: 'new-journey-key', name: 'key', required: true, pattern: '[a-z][a-z0-9_]*', maxlength: '64' }),
          h('label', { for: 'new-journey-name' }, 'Name'),
          h('input', { id: 'new-journey-name', name: 'name', required: true }),
          h('label', { for: 'new-journey-from' }, 'Start from'),
          h(
            'select',
            { id: 'new-journey-from', name: 'from' },
            journeys.map((j) => h('option', { value: j.key }, j.key)),
          ),
          h('button', { type: 'submit' }, 'Create draft'),
        )
      : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, 'Journeys'),
    h('p', null, `Environment ${session.me?.environment}: each environment has its own journeys and versions.`),
    table(
      `${r.data.data.length} journeys`,
      ['Key', 'Name', 'Published version', 'Latest version', 'Updated'],
      r.data.data.map((/** @type {any} */ j) => [
        h('a', { href: `#/journeys/${encodeURIComponent(j.key)}` }, j.key),
        j.name,
        j.published_version ?? 'none (drafts only)',
        j.latest_version,
        when(j.updated_at),
      ]),
    ),
    create,
  );
}

/**
 * @param {HTMLElement} root
 * @param {string} key
 * @param {(text: string) => void} say
 */
export async function renderJourney(root, key, say) {
  const r = await get(`/v1/journeys?key=${encodeURIComponent(key)}`);
  const j = r.status === 200 ? r.data.data[0] : null;
  if (!j) {
    mount(root, h('h1', { tabindex: '-1' }, `Journey ${key}`), h('p', null, r.status === 200 ? 'No such journey.' : problem(r)));
    return;
  }
  const reload = () => renderJourney(root, key, say);
  const newest = j.versions[0];
  const error = h('p', { id: 'definition-error', class: 'bad', role: 'alert' });
  const definition = h('textarea', {
    id: 'definition',
    name: 'definition',
    rows: '18',
    spellcheck: 'false',
    'aria-describedby': 'definition-error',
    value: JSON.stringify(newest.definition, null, 2),
  });
  /** @param {string} text */
  const fail = (text) => {
    error.textContent = text;
    definition.setAttribute('aria-invalid', 'true');
    definition.focus();
  };
  const editor = can('journeys:write')
    ? h(
        'form',
        {
          id: 'journey-editor',
          'aria-label': 'New draft version',
          onsubmit: async (/** @type {SubmitEvent} */ e) => {
            e.preventDefault();
            error.textContent = '';
            definition.removeAttribute('aria-invalid');
            const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
            /** @type {unknown} */
            let parsed;
            try {
              parsed = JSON.parse(String(data.get('definition')));
            } catch (err) {
              return fail(`Definition is not JSON: ${err instanceof Error ? err.message : String(err)}`);
            }
            const res = await call('POST', '/v1/journeys', { key: j.key, name: String(data.get('name')), definition: parsed });
            if (res.status === 400 && res.data?.error?.field) return fail(`${res.data.error.field}: ${problem(res)}`);
            if (res.status !== 201 && res.status !== 200) return say(problem(res));
            say(`Saved draft version ${res.data.latest_version}.`);
            reload();
          },
        },
        h('h2', null, 'Edit as a new draft'),
        h('label', { for: 'journey-name' }, 'Name'),
        h('input', { id: 'journey-name', name: 'name', value: j.name, required: true }),
        h('label', { for: 'definition' }, `Definition (JSON, from version ${newest.version})`),
        definition,
        error,
        h('button', { type: 'submit' }, 'Save draft'),
      )
    : null;
  mount(
    root,
    h('h1', { tabindex: '-1' }, `Journey ${j.key}`),
    h('p', null, `${j.name} · environment ${j.environment} · published version ${j.published_version ?? 'none'}`),
    table(
      'Versions',
      ['Version', 'Status', 'Written by', 'Created', 'Published', 'Action'],
      j.versions.map((/** @type {any} */ v) => [
        v.version,
        v.version === j.published_version ? 'published (current)' : v.status,
        actorName(v.created_by),
        when(v.created_at),
        when(v.published_at),
        can('journeys:publish') && v.version !== j.published_version
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                'data-version': v.version,
                onclick: async () => {
                  const res = await call('POST', `/v1/journeys/${encodeURIComponent(j.key)}/versions/${v.version}/publish`, {});
                  if (res.status !== 200) return say(problem(res));
                  say(`Published version ${v.version}.`);
                  reload();
                },
              },
              `Publish version ${v.version}`,
            )
          : '',
      ]),
    ),
    editor,
  );
}
