// Seeded pseudo-random numbers for generated bench data, so runs compare. One copy, shared with the
// tests (which cannot import bench/): mulberry32, see test/helpers/random.ts for why not the old LCG.
export { seeded, seededInts } from '../../test/helpers/random.js';
