/**
 * Set B of the MRZ benches (issue #19): check-digit-verified real MRZs rebuilt from the line crops of
 * ../shared/data/real/mrz/lines, stacked back into a band on white. Shared by bench/document-mrz-real.ts
 * (accuracy) and bench/document-mrz-diagnose.ts (failure causes) so both see the same MRZs and the same
 * split: `even` is the half tuned on, `odd` was held out until 2026-11-25 and is tuned on since; `fresh` is held out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

export interface MrzLabel {
  kind: string;
  number: string;
  birth: string;
  expiry: string;
  surname: string;
  given: string;
  nationality: string;
}

export interface SetBItem {
  /** Position in the picked sample (stable for a given limit and part; no names, so it can be logged). */
  index: number;
  format: string;
  label: MrzLabel;
  /** The printed MRZ lines (check-digit verified). Real people's data may be in them: never log them. */
  lines: string[];
  files: string[];
}

/**
 * `fresh`: the verified MRZs outside the default sample of 80 (every 2nd: the even half was tuned on, the odd half
 * read several times), less any that repeat a sampled document (same number and birth date): never looked at
 * before 2026-11-25. `limit` does not apply to it.
 */
export type LinesPart = 'all' | 'even' | 'odd' | 'fresh';
/** The size of the sample the even / odd halves were cut from (the bench's default). */
export const DEFAULT_LINES_LIMIT = 80;

export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text.charAt(i + 1) === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  const [head, ...body] = rows;
  return body.filter((r) => r.length > 1).map((r) => Object.fromEntries((head ?? []).map((h, i) => [h, r[i] ?? ''])));
}

/**
 * Every `step`-th verified MRZ (up to `limit`; 0 = all), then the `part` half of those. `skipped` counts the
 * MRZs whose line crops are missing.
 */
export function setB(real: string, limit: number, part: LinesPart): { items: SetBItem[]; skipped: number; step: number; total: number } {
  const lineRows = parseCsv(readFileSync(join(real, 'lines', 'labels.csv'), 'utf8'));
  const mrzs = parseCsv(readFileSync(join(real, 'lines', 'mrz_reconstructed.csv'), 'utf8')).filter(
    (m) => m.check_digits === 'all_checks_pass',
  );
  const sampleOf = (n: number) => {
    const every = Math.max(1, Math.floor(mrzs.length / Math.max(1, n)));
    return { every, rows: n > 0 ? mrzs.filter((_, i) => i % every === 0).slice(0, n) : mrzs };
  };
  let step: number;
  let picked: typeof mrzs;
  if (part === 'fresh') {
    const seen = sampleOf(DEFAULT_LINES_LIMIT).rows;
    const key = (m: (typeof mrzs)[number]) => `${m.doc_number}|${m.birth_date_yymmdd}`;
    const seenKeys = new Set(seen.map(key));
    step = 1;
    picked = mrzs.filter((m) => !seen.includes(m) && !seenKeys.has(key(m)));
  } else {
    const sample = sampleOf(limit);
    step = sample.every;
    picked = sample.rows.filter((_, i) => part === 'all' || (i % 2 === 0) === (part === 'even'));
  }
  const items: SetBItem[] = [];
  let skipped = 0;
  picked.forEach((m, index) => {
    const rows = lineRows
      .filter((l) => l.mrz_id === m.mrz_id && l.group === m.group)
      .sort((a, b) => Number(a.line_position_in_mrz) - Number(b.line_position_in_mrz));
    const expected = m.mrz_format === 'TD1' ? 3 : 2;
    const files = rows.map((l) => join(real, '..', l.image ?? ''));
    if (rows.length !== expected || !files.every((f) => existsSync(f))) {
      skipped++;
      return;
    }
    items.push({
      index,
      format: m.mrz_format ?? '?',
      lines: [m.mrz_line1, m.mrz_line2, m.mrz_line3].filter((l): l is string => !!l),
      files,
      label: {
        kind: m.mrz_format ?? '?',
        number: m.doc_number ?? '',
        birth: m.birth_date_yymmdd ?? '',
        expiry: m.expiry_date_yymmdd ?? '',
        surname: m.surname ?? '',
        given: m.given_names ?? '',
        nationality: m.nationality ?? '',
      },
    });
  });
  return { items, skipped, step, total: mrzs.length };
}

/** The line crops, each scaled to 56 px high, stacked on white with an 18 px gap and an 80 px margin. */
export async function stackLines(files: string[]): Promise<Buffer> {
  const H = 56;
  const lines = await Promise.all(
    files.map(async (f) => {
      const { data, info } = await sharp(f).grayscale().resize({ height: H }).raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width };
    }),
  );
  const gap = 18;
  const margin = 80;
  const width = Math.max(...lines.map((l) => l.width)) + 2 * margin;
  const height = lines.length * H + (lines.length - 1) * gap + 2 * margin;
  const canvas = Buffer.alloc(width * height, 255);
  lines.forEach((l, i) => {
    const y0 = margin + i * (H + gap);
    for (let y = 0; y < H; y++) l.data.copy(canvas, (y0 + y) * width + margin, y * l.width, (y + 1) * l.width);
  });
  return sharp(canvas, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}
