import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pnm, pnmSize, rgbaToRgb } from './pnm.js';

test('RGBA loses its alpha and nothing else', () => {
  assert.deepEqual([...rgbaToRgb(Uint8ClampedArray.from([1, 2, 3, 255, 4, 5, 6, 0, 7, 8, 9, 128]))], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(rgbaToRgb(new Uint8Array(0)).length, 0);
});

test('the size is read back from a PNM header, and only from one', () => {
  assert.deepEqual(pnmSize(pnm(new Uint8Array(12), 4, 3, 1)), { width: 4, height: 3 });
  assert.deepEqual(pnmSize(pnm(new Uint8Array(1_300 * 1_850 * 3), 1_300, 1_850, 3)), { width: 1_300, height: 1_850 });
  assert.equal(pnmSize(Buffer.from('\x89PNG\r\n\x1a\n')), null);
  assert.equal(pnmSize(Buffer.from('P4\n4 3\n')), null);
});
