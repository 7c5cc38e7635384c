import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ListInput } from './list-source.js';

/**
 * Reads `lists import FILE` input: a file as bytes, or a directory (the OFAC CSV set) as a map of
 * its .csv/.xml/.json files by name. Parsers decide the encoding.
 */
export function readListInput(path: string): ListInput {
  if (!statSync(path).isDirectory()) return readFileSync(path);
  const files: Record<string, Uint8Array> = {};
  for (const name of readdirSync(path)) {
    if (/\.(csv|xml|json|jsonl)$/i.test(name)) files[name.toLowerCase()] = readFileSync(join(path, name));
  }
  if (Object.keys(files).length === 0) throw new Error(`no list files in directory ${path}`);
  return files;
}
