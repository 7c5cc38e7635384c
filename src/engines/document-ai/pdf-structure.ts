import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';

/** One revision of a PDF: the bytes up to and including an %%EOF marker. */
export interface PdfRevision {
  index: number;
  /** Byte offset just past this revision's %%EOF. */
  end: number;
  /** Object numbers defined (or redefined) in this revision, object streams included. */
  objects: number[];
  /** Dictionary text of plain (not stream-packed) objects, for comparing a redefinition with its predecessor. */
  bodies: Map<number, string>;
}

export interface PdfStructure {
  revisions: PdfRevision[];
  /** What the pages draw with in the final revision. */
  pageObjects: Set<number>;
  contentObjects: Set<number>;
  fontObjects: Set<number>;
  /** Byte ranges covered by signatures (end offsets of each /ByteRange). */
  signedUntil: number[];
}

const EOF_RE = /%%EOF[\r\n\s]*/g;
const OBJ_RE = /(?:^|[\r\n\s])(\d{1,7})\s+\d{1,5}\s+obj\b/g;

/**
 * Splits a PDF into its revisions. Each incremental update appends objects, an xref section and a
 * new %%EOF, so the bytes between two markers are exactly what one save changed.
 */
export function splitRevisions(bytes: Buffer): PdfRevision[] {
  const text = bytes.toString('latin1');
  const ends: number[] = [];
  EOF_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = EOF_RE.exec(text))) ends.push(m.index + m[0].length);
  // A file whose last marker is followed only by junk still counts the junk as part of the last revision.
  if (ends.length === 0 || (ends[ends.length - 1] ?? 0) < text.length - 1024) ends.push(text.length);
  // A linearised file carries a first-page section with its own %%EOF before the main body.
  if (ends.length > 1 && /\/Linearized\b/.test(text.slice(0, 2048))) ends.shift();
  let start = 0;
  return ends.map((end, index) => {
    const section = text.slice(start, end);
    start = end;
    return { index, end, objects: objectsIn(section, bytes, end - section.length), bodies: bodiesIn(section) };
  });
}

function bodiesIn(section: string): Map<number, string> {
  const bodies = new Map<number, string>();
  const re = /(?:^|[\r\n\s])(\d{1,7})\s+\d{1,5}\s+obj\b([^]*?)(?:\bstream\b|\bendobj\b)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(section))) bodies.set(Number(m[1]), (m[2] ?? '').slice(0, 4096));
  return bodies;
}

function objectsIn(section: string, bytes: Buffer, offset: number): number[] {
  const found = new Set<number>();
  OBJ_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = OBJ_RE.exec(section))) found.add(Number(m[1]));
  // Objects packed in compressed object streams are listed in the stream's header.
  const streamRe = /\/Type\s*\/ObjStm[^]*?stream\r?\n/g;
  let s: RegExpExecArray | null;
  while ((s = streamRe.exec(section))) {
    const dataStart = offset + s.index + s[0].length;
    const endIdx = section.indexOf('endstream', s.index + s[0].length);
    if (endIdx < 0) continue;
    try {
      const count = Math.min(10_000, Number(/\/N\s+(\d+)/.exec(s[0])?.[1] ?? '0'));
      // An object stream's header is a few numbers per object: 4 MiB is plenty, and a bomb stops there.
      const header = inflateSync(bytes.subarray(dataStart, offset + endIdx), { maxOutputLength: 4 * 1024 * 1024 }).toString('latin1');
      const nums = header
        .trim()
        .split(/\s+/)
        .slice(0, count * 2)
        .map(Number);
      for (let i = 0; i + 1 < nums.length && Number.isInteger(nums[i]); i += 2) if (!Number.isNaN(nums[i])) found.add(nums[i]!);
    } catch {
      // Not Flate or damaged: the structural check below still sees the stream object itself.
    }
  }
  return [...found];
}

function refsOf(value: unknown): number[] {
  if (value instanceof PDFRef) return [value.objectNumber];
  if (value instanceof PDFArray) return value.asArray().flatMap(refsOf);
  return [];
}

/** Page, content-stream and font objects of the final document, read with pdf-lib. */
export async function readPdfStructure(bytes: Buffer): Promise<PdfStructure> {
  const revisions = splitRevisions(bytes);
  const pageObjects = new Set<number>();
  const contentObjects = new Set<number>();
  const fontObjects = new Set<number>();
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    for (const page of doc.getPages()) {
      pageObjects.add(page.ref.objectNumber);
      for (const n of refsOf(page.node.get(PDFName.of('Contents')))) contentObjects.add(n);
      const resources = page.node.Resources();
      const fonts = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
      if (fonts) for (const [, v] of fonts.entries()) for (const n of refsOf(v)) fontObjects.add(n);
    }
  } catch {
    // pdf-lib could not model the file; revision analysis alone still applies.
  }
  const text = bytes.toString('latin1');
  const signedUntil: number[] = [];
  const br = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  let m: RegExpExecArray | null;
  while ((m = br.exec(text))) signedUntil.push(Number(m[3]) + Number(m[4]));
  return { revisions, pageObjects, contentObjects, fontObjects, signedUntil };
}

/** The value of a dictionary key as text: a reference, an array or a nested dictionary. */
export function dictEntry(body: string, key: string): string | null {
  const at = new RegExp(`/${key}(?![A-Za-z])\\s*`).exec(body);
  if (!at) return null;
  const rest = body.slice(at.index + at[0].length);
  if (rest.startsWith('<<')) {
    let depth = 0;
    for (let i = 0; i < rest.length - 1; i++) {
      if (rest[i] === '<' && rest[i + 1] === '<') {
        depth++;
        i++;
      } else if (rest[i] === '>' && rest[i + 1] === '>') {
        depth--;
        i++;
        if (depth === 0) return rest.slice(0, i + 1).replace(/\s+/g, ' ');
      }
    }
    return rest.replace(/\s+/g, ' ');
  }
  const m = /^(\[[^\]]*\]|\d+\s+\d+\s+R|\S+)/.exec(rest);
  return m ? (m[1] ?? '').replace(/\s+/g, ' ') : null;
}
