import type { BirthDate, ScoreComponents } from './types.js';

export interface QueryDate {
  year: number;
  month?: number;
  day?: number;
}

/** Parses YYYY, YYYY-MM or YYYY-MM-DD; anything else is treated as no date rather than a wrong one. */
export function parseQueryDate(s: string): QueryDate | undefined {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?/.exec(s.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  return { year, month: m[2] ? Number(m[2]) : undefined, day: m[3] ? Number(m[3]) : undefined };
}

function iso(d: QueryDate): string {
  return `${d.year}-${String(d.month ?? 1).padStart(2, '0')}-${String(d.day ?? 1).padStart(2, '0')}`;
}

export interface DateComparison {
  outcome: NonNullable<ScoreComponents['birthDate']>;
  adjustment: number;
  detail?: string;
}

const RANK: Record<DateComparison['outcome'], number> = { exact: 5, year: 4, within_range: 4, one_year: 3, missing: 2, contradicts: 1 };

function compareOne(q: QueryDate, b: BirthDate): DateComparison {
  if (b.date) {
    const listed = parseQueryDate(b.date);
    if (!listed) return { outcome: 'missing', adjustment: 0 };
    if (listed.year === q.year) {
      if (q.month === undefined || (q.month === listed.month && (q.day === undefined || q.day === listed.day))) {
        const full = q.day !== undefined;
        return {
          outcome: full ? 'exact' : 'year',
          adjustment: full ? 0.05 : 0.02,
          detail: `date of birth ${iso(q).slice(0, full ? 10 : 4)} agrees with listed ${b.date}`,
        };
      }
      // Same year, another day: often a data-entry slip, so only a mild contradiction.
      return {
        outcome: 'one_year',
        adjustment: -0.05,
        detail: `date of birth in the listed year ${listed.year} but on another day (${b.date})`,
      };
    }
    return yearDistance(q.year, listed.year, b.date);
  }
  if (b.year !== undefined) {
    if (b.year === q.year) return { outcome: 'year', adjustment: 0.02, detail: `year of birth ${q.year} agrees with listed ${b.year}` };
    return yearDistance(q.year, b.year, String(b.year));
  }
  if (b.from || b.to) {
    const d = iso(q);
    const from = b.from ?? '0000-01-01';
    const to = b.to ?? '9999-12-31';
    if (d >= from && d <= to)
      return { outcome: 'within_range', adjustment: 0.02, detail: `date of birth within listed range ${b.from ?? '…'}–${b.to ?? '…'}` };
    const fy = Number(from.slice(0, 4));
    const ty = Number(to.slice(0, 4));
    const near = q.year >= fy - 1 && q.year <= ty + 1;
    return near
      ? { outcome: 'one_year', adjustment: 0, detail: `date of birth within a year of listed range ${b.from ?? '…'}–${b.to ?? '…'}` }
      : {
          outcome: 'contradicts',
          adjustment: -0.2,
          detail: `date of birth ${q.year} outside listed range ${b.from ?? '…'}–${b.to ?? '…'}`,
        };
  }
  return { outcome: 'missing', adjustment: 0 };
}

function yearDistance(qy: number, ly: number, listed: string): DateComparison {
  const d = Math.abs(qy - ly);
  if (d <= 1) return { outcome: 'one_year', adjustment: 0, detail: `year of birth ${qy} within one year of listed ${listed}` };
  return {
    outcome: 'contradicts',
    adjustment: d <= 3 ? -0.12 : -0.2,
    detail: `year of birth ${qy} differs from listed ${listed} by ${d} years`,
  };
}

/** Best agreement between the subject's date of birth and any of the listed ones. */
export function compareBirthDates(q: QueryDate | undefined, listed: readonly BirthDate[]): DateComparison {
  if (!q || listed.length === 0) return { outcome: 'missing', adjustment: 0 };
  let best: DateComparison = { outcome: 'missing', adjustment: 0 };
  let bestRank = 0;
  for (const b of listed) {
    const c = compareOne(q, b);
    if (RANK[c.outcome] > bestRank) {
      best = c;
      bestRank = RANK[c.outcome];
    }
  }
  return best;
}
