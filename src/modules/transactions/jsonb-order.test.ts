import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDb } from '../../../test/helpers/test-db.js';
import { seeded } from '../../../test/helpers/random.js';
import type { Db } from '../../platform/db.js';
import { asJsonb } from './repository.js';

// asJsonb puts an object's keys in the order a jsonb column reads them back (the POST answers what GET reads):
// checked against the database the suite runs on, for key sets small (sorted in place) and large (Array sort).
let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await createTestDb());
});
after(() => close());

const ALPHABET = ['a', 'b', 'z', 'A', 'Z', '_', '0', '9', 'é', 'ß', '中', '😀'];

test('keys come out in the order the database stores them, nested and at every size', async () => {
  const rnd = seeded(4242);
  const key = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join('');
  for (const size of [2, 3, 5, 8, 16, 17, 40]) {
    for (let round = 0; round < 5; round++) {
      const o: Record<string, unknown> = {};
      while (Object.keys(o).length < size) o[key()] = { [key()]: 1, [key()]: [2, { [key()]: 3, [key()]: 4 }] };
      const [row] = await db.query<{ v: unknown }>('SELECT $1::jsonb AS v', [JSON.stringify(o)]);
      assert.equal(JSON.stringify(asJsonb(o)), JSON.stringify(row!.v), `size ${size}, round ${round}`);
    }
  }
});
