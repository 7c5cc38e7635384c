// Streaming readers shared by the registry formats: plain, gzip or single-entry zip files, read as CSV rows
// or JSON values (JSON lines, a JSON array, or one pretty-printed document), each with its line number.

import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, createInflateRaw } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { RegistryFileError } from './registry-source.js';

/** Largest single JSON document read whole (a pretty-printed package or API response). */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

export const fileLabel = (path: string): string => basename(path);

/** The file's bytes, uncompressed: `.gz` through gunzip, `.zip` (its first entry) through raw inflate. */
export function openInput(path: string): Readable {
  const file = fileLabel(path);
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new RegistryFileError(file, null, `cannot read: ${(e as Error).message}`);
  }
  if (path.endsWith('.gz')) {
    const gz = createGunzip();
    createReadStream(path)
      .on('error', (e) => gz.destroy(e))
      .pipe(gz);
    return gz;
  }
  if (path.endsWith('.zip')) {
    const head = Buffer.alloc(30);
    const fd = openSync(path, 'r');
    let n: number;
    try {
      n = readSync(fd, head, 0, 30, 0);
    } finally {
      closeSync(fd);
    }
    if (n < 30 || head.readUInt32LE(0) !== 0x04034b50) throw new RegistryFileError(file, null, 'not a zip file (no local file header)');
    const method = head.readUInt16LE(8);
    const start = 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    if (start >= size) throw new RegistryFileError(file, null, 'truncated zip: the first entry has no data');
    const raw = createReadStream(path, { start });
    if (method === 0) return raw;
    if (method !== 8) throw new RegistryFileError(file, null, `zip compression method ${method} is not supported (deflate or stored only)`);
    const inflate = createInflateRaw();
    raw.on('error', (e) => inflate.destroy(e)).pipe(inflate);
    return inflate;
  }
  return createReadStream(path);
}

/** Decompression and I/O failures become a file error ("truncated zip" rather than "unexpected end of file"). */
export function ioError(file: string, line: number | null, e: unknown): RegistryFileError {
  if (e instanceof RegistryFileError) return e;
  const msg = (e as Error).message ?? String(e);
  const code = (e as { code?: string }).code ?? '';
  if (code.startsWith('Z_') || /unexpected end of file|incorrect header|invalid (block|distance|stored)/i.test(msg))
    return new RegistryFileError(file, line, `truncated or corrupt compressed data (${msg})`);
  return new RegistryFileError(file, line, msg);
}

export interface CsvRow {
  line: number;
  row: Record<string, string>;
}

/** CSV rows as objects keyed by the (trimmed) header; the header must hold every required column. */
export async function* csvRows(path: string, required: readonly string[]): AsyncGenerator<CsvRow> {
  const file = fileLabel(path);
  const input = openInput(path);
  const parser = input.pipe(
    parseCsv({
      columns: (h: string[]) => {
        const cols = h.map((c) => c.trim().replace(/^\uFEFF/, ''));
        const missing = required.filter((r) => !cols.includes(r));
        if (missing.length)
          throw new RegistryFileError(
            file,
            1,
            `wrong columns: missing ${missing.join(', ')} (found ${cols.slice(0, 8).join(', ')}${cols.length > 8 ? ', …' : ''})`,
          );
        return cols;
      },
      info: true,
      bom: true,
      relax_quotes: false,
    }),
  );
  input.on('error', (e) => parser.destroy(e));
  let lastLine = 1;
  try {
    for await (const rec of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      lastLine = rec.info.lines;
      yield { line: rec.info.lines, row: rec.record };
    }
  } catch (e) {
    const line = (e as { lines?: number }).lines ?? lastLine;
    throw ioError(file, line, e);
  }
}

export interface JsonItem {
  line: number;
  value: unknown;
}

/**
 * JSON values from a file in any of the shapes registries publish: JSON lines (one value a line, a trailing
 * comma and bare `[`/`]` lines tolerated, as in the PSC snapshot), a JSON array (each top-level element is one
 * item), or a single pretty-printed object. Line numbers are 1-based; a bad value names its line.
 */
export async function* jsonItems(path: string): AsyncGenerator<JsonItem> {
  const file = fileLabel(path);
  const input = openInput(path);
  let inputError: unknown;
  const rl = createInterface({ input, crlfDelay: Infinity });
  // readline does not pass on its input's errors: a truncated .gz or .zip would look like a short file.
  input.on('error', (e) => {
    inputError = e;
    rl.close();
  });
  let no = 0;
  let buffered: string[] | null = null; // whole-document mode
  const head: string[] = []; // lines before the first value, kept in case the file is one document
  let decided = false;
  let bytes = 0;
  try {
    for await (const raw of rl) {
      no++;
      if (buffered) {
        bytes += raw.length + 1;
        if (bytes > MAX_DOCUMENT_BYTES) throw new RegistryFileError(file, no, 'document larger than 256 MB; use JSON lines');
        buffered.push(raw);
        continue;
      }
      const line = raw.trim();
      if (!decided) head.push(raw);
      if (line === '' || line === '[' || line === ']' || line === '],' || line === ',') continue;
      const body = line.endsWith(',') ? line.slice(0, -1) : line;
      if (!decided) {
        decided = true;
        // A first value that does not fit on its line means a pretty-printed document.
        if (!completeValue(body)) {
          buffered = head;
          bytes = head.join('\n').length;
          continue;
        }
      }
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (e) {
        throw new RegistryFileError(file, no, `invalid JSON: ${(e as Error).message}`);
      }
      if (no === 1 && Array.isArray(value)) {
        for (const v of value) yield { line: no, value: v };
      } else yield { line: no, value };
    }
  } catch (e) {
    throw ioError(file, no, e);
  }
  if (inputError) throw ioError(file, no, inputError);
  if (buffered) for (const item of splitDocument(file, buffered.join('\n'))) yield item;
}

function completeValue(s: string): boolean {
  if (!(s.startsWith('{') || s.startsWith('['))) return true; // let JSON.parse name the error
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** A whole document: an array gives its elements, each with the line it starts on; an object is one item. */
function splitDocument(file: string, text: string): JsonItem[] {
  const first = text.search(/\S/);
  if (text[first] !== '[') {
    try {
      return [{ line: lineAt(text, first), value: JSON.parse(text) }];
    } catch (e) {
      throw new RegistryFileError(file, jsonErrorLine(text, e), `invalid JSON: ${(e as Error).message}`);
    }
  }
  const items: JsonItem[] = [];
  let depth = 0,
    inStr = false,
    esc = false,
    start = -1,
    line = 1,
    startLine = 1,
    closed = false;
  for (let i = first; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inStr) {
      if (esc) esc = false;
      else if (c === '\\') esc = true;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') {
      inStr = true;
      if (depth === 1 && start < 0) ((start = i), (startLine = line));
      continue;
    }
    if (c === '[' || c === '{') {
      if (depth === 1 && start < 0) ((start = i), (startLine = line));
      depth++;
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        if (start >= 0) items.push(parseAt(file, text.slice(start, i), startLine));
        closed = true;
        break;
      }
    } else if (c === ',' && depth === 1) {
      if (start >= 0) items.push(parseAt(file, text.slice(start, i), startLine));
      start = -1;
    } else if (depth === 1 && start < 0 && !/\s/.test(c)) ((start = i), (startLine = line));
  }
  if (!closed) throw new RegistryFileError(file, line, 'truncated JSON: the array is not closed');
  return items;
}

function parseAt(file: string, slice: string, line: number): JsonItem {
  try {
    return { line, value: JSON.parse(slice) };
  } catch (e) {
    throw new RegistryFileError(file, line + jsonErrorLine(slice, e) - 1, `invalid JSON: ${(e as Error).message}`);
  }
}

const lineAt = (text: string, offset: number): number => text.slice(0, Math.max(0, offset)).split('\n').length;

function jsonErrorLine(text: string, e: unknown): number {
  const m = /position (\d+)/.exec((e as Error).message);
  return m ? lineAt(text, Number(m[1])) : 1;
}
