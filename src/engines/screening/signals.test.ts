import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScreeningIndex } from './index.js';
import { screeningSignals } from './signals.js';
import { sandboxList } from '../../providers/lists/sandbox-list.js';

test('screening result as signals', () => {
  const idx = ScreeningIndex.build(sandboxList());
  const hit = screeningSignals(
    idx.screen({ name: 'Sandbox Sanctioned Person', identifiers: [{ type: 'passport', value: 'SBX 0000001' }] }),
  );
  assert.equal(hit.find((s) => s.name === 'screening_decision')?.value, 'match');
  assert.equal(hit.find((s) => s.name === 'screening_identifier_match')?.passed, false);
  const clear = screeningSignals(idx.screen({ name: 'Nobody Inparticular' }));
  assert.deepEqual(
    clear.find((s) => s.name === 'screening_decision'),
    { name: 'screening_decision', value: 'no_match', passed: true, detail: '0 hit(s) at or above 0.8' },
  );
});
