import { countryCode } from '../screening/countries.js';
import { groupLines, groupSegments, type TextLine } from '../text/lines.js';
import type { TextPage, Word } from '../text/types.js';
import { parseAddress, type ParsedAddress } from './address.js';
import { findDates, ISSUE_DATE_LABELS } from './dates.js';
import { findPostcodes } from './postcodes.js';

export interface Box {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ExtractedName {
  value: string;
  confidence: number;
  source: 'label' | 'address_block';
  box: Box;
}

export interface ExtractedAddress extends ParsedAddress {
  confidence: number;
  source: 'label' | 'address_block';
  box: Box;
}

export interface ExtractedDate {
  iso: string;
  text: string;
  confidence: number;
  source: 'label' | 'first_date';
  box: Box;
}

export interface PoaFields {
  name: ExtractedName | null;
  address: ExtractedAddress | null;
  issueDate: ExtractedDate | null;
}

const NAME_LABEL = /(?:^|\s)(tenant\(s\)|tenants?|the tenant|account holder|account name|customer name|customer|name)\s*:\s+(.+)$/i;
const ADDRESS_LABEL =
  /(?:^|\s)(property address|property|the premises|premises|supply address|correspondence address|address)\s*:\s*(.+)$/i;
const NAME_LIKE = /^(?=.*\p{L}{2})[\p{L}'’.\- ]+$/u;

const meanConfidence = (words: readonly Word[]): number => (words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0);
const firstColumn = (s: string): string => s.split(/\s{3,}/)[0]?.trim() ?? '';

function boxOf(page: number, items: ReadonlyArray<{ x: number; y: number; w: number; h: number }>): Box {
  const x = Math.min(...items.map((i) => i.x));
  const y = Math.min(...items.map((i) => i.y));
  return { page, x, y, w: Math.max(...items.map((i) => i.x + i.w)) - x, h: Math.max(...items.map((i) => i.y + i.h)) - y };
}

function looksLikeName(s: string): boolean {
  const tokens = s.trim().split(/\s+/);
  return NAME_LIKE.test(s.trim()) && tokens.length >= 2 && tokens.length <= 6 && countryCode(s) === undefined;
}

/** The window-envelope block: segments stacked in one column, ending at a postcode line (plus a country line). */
function addressBlocks(segments: readonly TextLine[], page: TextPage): TextLine[][] {
  const blocks: Array<{ lines: TextLine[]; score: number }> = [];
  for (const seg of segments) {
    if (findPostcodes(seg.text).length === 0) continue;
    const block = [seg];
    let cur = seg;
    for (let guard = 0; guard < 6; guard++) {
      const above = segments
        .filter(
          (t) =>
            t !== cur && Math.abs(t.x - cur.x) < page.width * 0.03 && cur.y - (t.y + t.h) > -t.h * 0.2 && cur.y - (t.y + t.h) < cur.h * 1.2,
        )
        .sort((a, b) => b.y - a.y)[0];
      if (!above) break;
      block.unshift(above);
      cur = above;
    }
    const below = segments.find((t) => Math.abs(t.x - seg.x) < page.width * 0.03 && t.y > seg.y && t.y - (seg.y + seg.h) < seg.h * 1.2);
    if (below && countryCode(below.text) !== undefined) block.push(below);
    const top = block[0]!;
    const score =
      (looksLikeName(top.text) ? 2 : 0) +
      (seg.x < page.width / 2 ? 1 : 0) +
      (seg.y < page.height * 0.45 ? 1 : 0) +
      (block.length >= 3 ? 1 : 0);
    blocks.push({ lines: block, score });
  }
  return blocks.sort((a, b) => b.score - a.score).map((b) => b.lines);
}

function findIssueDate(pages: readonly TextPage[], monthFirst: boolean): ExtractedDate | null {
  let fallback: ExtractedDate | null = null;
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p]!;
    for (const line of groupLines(page.words)) {
      const label = ISSUE_DATE_LABELS.exec(line.text);
      const from = label ? label.index + label[0].length : 0;
      const date = findDates(line.text.slice(from), monthFirst)[0];
      if (!date) continue;
      const dateWords = line.words.filter((w) => date.text.includes(w.text.replace(/[,.:]$/, '')) && w.text.length > 0);
      const box = boxOf(p + 1, dateWords.length ? dateWords : [line]);
      const conf = meanConfidence(dateWords.length ? dateWords : line.words);
      if (label) return { iso: date.iso, text: date.text, confidence: round(0.95 * conf), source: 'label', box };
      if (!fallback && line.y < page.height * 0.4)
        fallback = { iso: date.iso, text: date.text, confidence: round(0.6 * conf), source: 'first_date', box };
    }
  }
  return fallback;
}

/** Holder name, address and issue date from extracted text; each with confidence and page box. */
export function extractPoaFields(pages: readonly TextPage[], countryHint?: string): PoaFields {
  const page = pages[0];
  if (!page) return { name: null, address: null, issueDate: null };
  const lines = groupLines(page.words);
  let name: ExtractedName | null = null;
  let address: ExtractedAddress | null = null;

  for (const line of lines) {
    const n: RegExpExecArray | null = name ? null : NAME_LABEL.exec(line.text);
    const value: string = n ? firstColumn(n[2] ?? '') : '';
    if (n && looksLikeName(value))
      name = { value, confidence: round(0.9 * meanConfidence(line.words)), source: 'label', box: boxOf(1, [line]) };
    const a = address ? null : ADDRESS_LABEL.exec(line.text);
    if (a) {
      const parsed = parseAddress(firstColumn(a[2] ?? ''), countryHint);
      if (parsed.postcode)
        address = {
          ...parsed,
          confidence: round((parsed.valid ? 0.9 : 0.5) * meanConfidence(line.words)),
          source: 'label',
          box: boxOf(1, [line]),
        };
    }
  }
  if (!name || !address) {
    const block = addressBlocks(groupSegments(page.words), page)[0];
    if (block) {
      const top = block[0]!;
      const hasName = looksLikeName(top.text);
      if (!name && hasName)
        name = { value: top.text, confidence: round(0.8 * meanConfidence(top.words)), source: 'address_block', box: boxOf(1, [top]) };
      if (!address) {
        const addrLines = hasName ? block.slice(1) : block;
        const parsed = parseAddress(
          addrLines.map((l) => l.text),
          countryHint,
        );
        const words = addrLines.flatMap((l) => l.words);
        address = {
          ...parsed,
          confidence: round((parsed.valid ? 0.85 : 0.45) * meanConfidence(words)),
          source: 'address_block',
          box: boxOf(1, addrLines),
        };
      }
    }
  }
  const monthFirst = (address?.country ?? countryHint) === 'US';
  return { name, address, issueDate: findIssueDate(pages, monthFirst) };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
