import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertSeverity, reviewSeverity } from './severity.js';

test('review severity follows the risk band; a sanctions match is critical', () => {
  assert.equal(reviewSeverity('low', ['document_needs_review']), 'low');
  assert.equal(reviewSeverity('medium', ['sanctions_pep_potential_match']), 'medium');
  assert.equal(reviewSeverity('high', ['risk_band_high']), 'high');
  assert.equal(reviewSeverity('low', ['sanctions_pep_match']), 'critical');
  assert.equal(reviewSeverity(null, []), 'medium');
});

test('alert severity from the hit', () => {
  const hit = (o: { blocked?: boolean; score: number; datasets: string[]; identifier?: string }) => ({
    blocked: o.blocked ?? false,
    score: o.score,
    datasets: o.datasets,
    explanation: { matched: [], contradicted: [], components: o.identifier ? { identifier: o.identifier } : {} },
  });
  assert.equal(alertSeverity(hit({ blocked: true, score: 0.5, datasets: ['pep'] })), 'critical');
  assert.equal(alertSeverity(hit({ score: 0.7, datasets: ['pep'], identifier: 'match' })), 'critical');
  assert.equal(alertSeverity(hit({ score: 0.95, datasets: ['sanctions'] })), 'high');
  assert.equal(alertSeverity(hit({ score: 0.95, datasets: ['pep'] })), 'medium');
  assert.equal(alertSeverity(hit({ score: 0.82, datasets: ['sanctions'] })), 'medium');
  assert.equal(alertSeverity(hit({ score: 0.82, datasets: ['pep'] })), 'low');
});
