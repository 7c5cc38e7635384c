export interface FoundDate {
  /** ISO YYYY-MM-DD. */
  iso: string;
  date: Date;
  text: string;
  index: number;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const PATTERNS: Array<{ re: RegExp; parse: (m: RegExpExecArray, monthFirst: boolean) => [number, number, number] | null }> = [
  {
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'gi'),
    parse: (m) => [Number(m[3]), MONTHS[(m[2] ?? '').toLowerCase().replace('.', '')] ?? 0, Number(m[1])],
  },
  {
    re: new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    parse: (m) => [Number(m[3]), MONTHS[(m[1] ?? '').toLowerCase().replace('.', '')] ?? 0, Number(m[2])],
  },
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/g, parse: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  {
    re: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/g,
    parse: (m, monthFirst) => {
      const a = Number(m[1]);
      const b = Number(m[2]);
      // An impossible month settles the order; otherwise the country's convention does.
      if (a > 12 && b <= 12) return [Number(m[3]), b, a];
      if (b > 12 && a <= 12) return [Number(m[3]), a, b];
      return monthFirst ? [Number(m[3]), a, b] : [Number(m[3]), b, a];
    },
  },
];

/** All calendar dates in a text, in order of appearance. `monthFirst` for US-style 03/12/2026. */
export function findDates(text: string, monthFirst = false): FoundDate[] {
  const out: FoundDate[] = [];
  for (const { re, parse } of PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      const ymd = parse(m, monthFirst);
      if (!ymd) continue;
      const [y, mo, d] = ymd;
      const date = new Date(Date.UTC(y, mo - 1, d));
      if (mo < 1 || mo > 12 || date.getUTCDate() !== d || y < 1900 || y > 2200) continue;
      if (out.some((o) => m!.index < o.index + o.text.length && o.index < m!.index + m![0].length)) continue;
      out.push({ iso: date.toISOString().slice(0, 10), date, text: m[0], index: m.index });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Labels that introduce the date a document was issued, most specific first. */
export const ISSUE_DATE_LABELS =
  /\b(statement date|date of statement|bill date|date of bill|invoice date|date of issue|issue date|issued on|issued|letter date|dated|pay date|order date|date)\b\s*:?/i;
