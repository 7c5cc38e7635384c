import { signal, type Signal } from '../signal.js';
import { groupLines } from '../text/lines.js';
import { openPdf, readPdfInfo, readPdfPageWords } from '../text/pdf-text.js';
import { dictEntry, readPdfStructure, type PdfRevision, type PdfStructure } from './pdf-structure.js';

/**
 * Whether a revision changed what a page draws. A rewritten page dictionary alone is not enough:
 * signing or annotating rewrites it to add /Annots. Only a new or redefined content stream or font,
 * or a page whose /Contents or /Resources differ from the previous definition, counts.
 */
function changesDrawing(structure: PdfStructure, revision: PdfRevision): boolean {
  return revision.objects.some((n) => {
    if (structure.contentObjects.has(n) || structure.fontObjects.has(n)) return true;
    if (!structure.pageObjects.has(n)) return false;
    const now = revision.bodies.get(n);
    const before = structure.revisions
      .slice(0, revision.index)
      .reverse()
      .map((r) => r.bodies.get(n))
      .find((b) => b !== undefined);
    if (now === undefined || before === undefined) return true;
    return dictEntry(now, 'Contents') !== dictEntry(before, 'Contents') || dictEntry(now, 'Resources') !== dictEntry(before, 'Resources');
  });
}

/** Tools whose presence in Producer/Creator means a person edited the file after it was issued. */
const EDITORS =
  /photoshop|gimp|illustrator|inkscape|pdfescape|sejda|ilovepdf|smallpdf|pdf-xchange|pdfxchange|phantompdf|foxit pdf editor|nitro|pdfelement|wondershare|canva|pdf candy|pdffiller|dochub|acrobat pro|master pdf editor|libreoffice draw|pixelmator|affinity/i;

/** PDF date "D:YYYYMMDDHHmmSS+HH'mm'" to a Date. */
export function parsePdfDate(s: string | null): Date | null {
  if (!s) return null;
  const m = /D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(s);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', se = '00', sign, oh = '00', om = '00'] = m;
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  if (sign === '+' || sign === '-') t -= (sign === '+' ? 1 : -1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return Number.isNaN(t) ? null : new Date(t);
}

export interface PdfTamperOptions {
  /** Modification this long after creation is flagged; issuers' systems write both at once. */
  maxModifiedAfterDays?: number;
}

/** Tampering signals of a PDF from its raw structure, metadata and text-layer fonts. */
export async function analysePdfTampering(bytes: Buffer, options: PdfTamperOptions = {}): Promise<Signal[]> {
  const signals: Signal[] = [];
  const structure = await readPdfStructure(bytes);
  const updates = structure.revisions.slice(1);
  signals.push(
    signal('pdf_incremental_updates', updates.length, updates.length === 0 ? true : null, {
      detail: 'Saves appended after the first version; harmless alone (form filling, signing).',
    }),
  );

  const changed = updates.filter((r) => changesDrawing(structure, r));
  signals.push(
    signal('pdf_content_changed_in_update', changed.length > 0, changed.length === 0, {
      detail: changed.length
        ? `Revision(s) ${changed.map((r) => r.index + 1).join(', ')} rewrote page content, page or font objects.`
        : 'No later revision touched what the pages draw.',
    }),
  );

  if (structure.signedUntil.length > 0) {
    const signedEnd = Math.max(...structure.signedUntil);
    const after = changed.filter((r) => r.end > signedEnd + 2);
    signals.push(
      signal('pdf_changed_after_signing', after.length > 0, after.length === 0, { detail: `Signature covers bytes up to ${signedEnd}.` }),
    );
  }

  let doc;
  try {
    doc = await openPdf(bytes);
  } catch {
    signals.push(signal('pdf_parse', false, false, { detail: 'The PDF could not be parsed for metadata and fonts.' }));
    return signals;
  }
  try {
    const info = await readPdfInfo(doc);
    const tool = [info.producer, info.creator].filter(Boolean).join(' / ');
    const edited = EDITORS.test(tool);
    signals.push(
      signal('pdf_producer', tool || null, edited ? false : null, {
        detail: edited ? 'Produced or last saved by an editing tool.' : 'Producer and creator as recorded.',
      }),
    );
    const created = parsePdfDate(info.creationDate);
    const modified = parsePdfDate(info.modDate);
    const limit = options.maxModifiedAfterDays ?? 1;
    if (created && modified) {
      const days = Math.round(((modified.getTime() - created.getTime()) / 86_400_000) * 100) / 100;
      signals.push(
        signal('pdf_modified_after_creation_days', days, days >= -0.01 && days <= limit, {
          threshold: limit,
          detail: days < 0 ? 'Modified before it was created: dates were edited.' : undefined,
        }),
      );
    } else {
      signals.push(signal('pdf_dates_present', false, null, { detail: 'Creation or modification date missing.' }));
    }

    let mixedLines = 0;
    const examples: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const text = await readPdfPageWords(page);
      await page.getOperatorList();
      const baseName = (id: string): string => {
        try {
          const font = page.commonObjs.get(id) as { name?: string } | undefined;
          return (font?.name ?? id).replace(/^[A-Z]{6}\+/, '');
        } catch {
          return id;
        }
      };
      for (const line of groupLines(text.words)) {
        const byName = new Map<string, Set<string>>();
        for (const w of line.words) {
          if (!w.font) continue;
          const name = baseName(w.font);
          byName.set(name, (byName.get(name) ?? new Set()).add(w.font));
        }
        // The same typeface loaded as two font objects on one line: text typed in later by an editor.
        if ([...byName.values()].some((ids) => ids.size > 1)) {
          mixedLines++;
          if (examples.length < 3) examples.push(`p${n}: "${line.text.slice(0, 60)}"`);
        }
      }
      page.cleanup();
    }
    signals.push(
      signal('pdf_font_objects_mixed_on_line', mixedLines, mixedLines === 0, { threshold: 0, detail: examples.join('; ') || undefined }),
    );
  } finally {
    await doc.destroy();
  }
  return signals;
}
