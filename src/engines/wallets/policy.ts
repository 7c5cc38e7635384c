import { CATEGORIES, isCategory, type Category } from './attribution.js';

// The operator-editable policy table: category × exposure (direct / indirect) × minimum share →
// level. The highest level whose row matches wins; a direct hit has share 1.

export const LEVELS = ['low', 'medium', 'high', 'severe'] as const;
export type RiskLevel = (typeof LEVELS)[number];

export interface PolicyRow {
  category: Category;
  exposure: 'direct' | 'indirect';
  /** Share of value in [0, 1] at or above which the row applies. */
  minShare: number;
  level: RiskLevel;
}

const D = (category: Category, level: RiskLevel): PolicyRow => ({ category, exposure: 'direct', minShare: 0, level });
const I = (category: Category, minShare: number, level: RiskLevel): PolicyRow => ({ category, exposure: 'indirect', minShare, level });

/** Defaults: block on direct sanctions-type hits, review on material indirect exposure. */
export const DEFAULT_POLICY: readonly PolicyRow[] = [
  D('sanctions', 'severe'),
  D('terrorist_financing', 'severe'),
  D('ransomware', 'severe'),
  D('stolen_funds', 'high'),
  D('darknet_market', 'high'),
  D('mixer', 'high'),
  D('scam', 'high'),
  D('custom', 'high'),
  D('no_kyc_exchange', 'medium'),
  D('gambling', 'medium'),
  D('exchange', 'low'),
  I('sanctions', 0, 'medium'),
  I('sanctions', 0.1, 'high'),
  I('sanctions', 0.5, 'severe'),
  I('terrorist_financing', 0, 'medium'),
  I('terrorist_financing', 0.1, 'high'),
  I('terrorist_financing', 0.5, 'severe'),
  I('ransomware', 0.01, 'medium'),
  I('ransomware', 0.1, 'high'),
  I('darknet_market', 0.05, 'medium'),
  I('darknet_market', 0.25, 'high'),
  I('mixer', 0.05, 'medium'),
  I('mixer', 0.25, 'high'),
  I('stolen_funds', 0.05, 'medium'),
  I('stolen_funds', 0.25, 'high'),
  I('scam', 0.1, 'medium'),
  I('scam', 0.5, 'high'),
  I('custom', 0.1, 'medium'),
  I('no_kyc_exchange', 0.25, 'medium'),
  I('gambling', 0.5, 'medium'),
];

/** Validates an operator's table; errors name the row and field. */
export function validatePolicy(rows: unknown): PolicyRow[] {
  if (!Array.isArray(rows)) throw new Error('policy: expected an array of rows');
  return rows.map((r: unknown, i) => {
    const row = r as Record<string, unknown>;
    if (typeof row !== 'object' || row === null) throw new Error(`policy[${i}]: expected an object`);
    if (typeof row.category !== 'string' || !isCategory(row.category))
      throw new Error(`policy[${i}].category: one of ${CATEGORIES.join(', ')}`);
    if (row.exposure !== 'direct' && row.exposure !== 'indirect') throw new Error(`policy[${i}].exposure: direct or indirect`);
    if (typeof row.minShare !== 'number' || !(row.minShare >= 0 && row.minShare <= 1))
      throw new Error(`policy[${i}].minShare: a number in [0, 1]`);
    if (typeof row.level !== 'string' || !(LEVELS as readonly string[]).includes(row.level))
      throw new Error(`policy[${i}].level: one of ${LEVELS.join(', ')}`);
    return { category: row.category, exposure: row.exposure, minShare: row.minShare, level: row.level as RiskLevel };
  });
}

/** Level of one finding, or undefined when no row applies (the finding is then informational). */
export function levelFor(
  policy: readonly PolicyRow[],
  category: Category,
  exposure: 'direct' | 'indirect',
  share: number,
): RiskLevel | undefined {
  let best = -1;
  for (const r of policy) {
    if (r.category === category && r.exposure === exposure && share >= r.minShare) best = Math.max(best, LEVELS.indexOf(r.level));
  }
  return best < 0 ? undefined : LEVELS[best];
}

const BASE: Record<RiskLevel, number> = { low: 0, medium: 25, high: 50, severe: 75 };

/** 0–100: the level's band, placed within it by the share. */
export function scoreFor(level: RiskLevel, share: number): number {
  return Math.min(100, BASE[level] + Math.round(25 * Math.min(1, Math.max(0, share))));
}
