import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { meshMotion } from './motion.js';

// A 3-D point cloud shaped roughly like a face, projected orthographically.
const points: [number, number, number][] = [];
for (let i = 0; i < 200; i++) {
  const a = (i * 2.399963) % (2 * Math.PI);
  const r = 0.4 * Math.sqrt(((i * 7919) % 200) / 200);
  points.push([r * Math.cos(a), 1.2 * r * Math.sin(a), 0.3 * Math.cos(3 * r)]);
}
const project = (yaw: number, shift: number, scale: number): Float32Array => {
  const out = new Float32Array(points.length * 2);
  points.forEach(([x, y, z], i) => {
    const xr = x * Math.cos(yaw) + z * Math.sin(yaw);
    out[2 * i] = 300 + shift + 200 * scale * xr;
    out[2 * i + 1] = 300 + 200 * scale * y;
  });
  return out;
};

describe('mesh motion', () => {
  test('a flat photo moved and scaled is explained by an affine map', () => {
    const m = meshMotion(project(0, 0, 1), project(0, 12, 1.05), 160)!;
    assert.ok(m.displacement > 0.05);
    assert.ok(m.nonRigidResidual < 1e-4, `residual ${m.nonRigidResidual}`);
  });

  test('a head turning in depth leaves a non-rigid residual', () => {
    const m = meshMotion(project(0, 0, 1), project(0.35, 0, 1), 160)!;
    assert.ok(m.nonRigidResidual > 0.005, `residual ${m.nonRigidResidual}`);
  });

  test('identical frames have no motion at all', () => {
    const a = project(0.1, 0, 1);
    assert.equal(meshMotion(a, a, 160)!.displacement, 0);
  });
});
