import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/**
 * PDF417 reading (zxing-wasm, its .wasm loaded from node_modules so nothing is fetched) and parsing of the
 * AAMVA DL/ID card design standard used on North-American driving licences and ID cards.
 */

const require = createRequire(import.meta.url);
let prepared = false;

function prepare(): void {
  if (prepared) return;
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    fireImmediately: false,
  });
  prepared = true;
}

export const BARCODE_MODEL = { name: 'zxing-wasm-pdf417', version: '3.1' };

/** Decodes PDF417 symbols in an RGB image; returns their texts (empty when none is found). */
export async function readPdf417(rgb: Buffer | Uint8Array, width: number, height: number): Promise<string[]> {
  prepare();
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    rgba[i * 4] = rgb[j] ?? 0;
    rgba[i * 4 + 1] = rgb[j + 1] ?? 0;
    rgba[i * 4 + 2] = rgb[j + 2] ?? 0;
    rgba[i * 4 + 3] = 255;
  }
  const results = await readBarcodes({ data: rgba, width, height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0], {
    formats: ['PDF417'],
    tryHarder: true,
    tryRotate: true,
    maxNumberOfSymbols: 2,
    textMode: 'Plain',
  });
  return results.filter((r) => r.isValid && r.text.length > 0).map((r) => r.text);
}

export interface AamvaFields {
  documentType: 'driving_licence' | 'id_card';
  issuerIdentificationNumber: string;
  aamvaVersion: number;
  /** ISO 3166 alpha-3 from DCG (USA or CAN), '' when absent. */
  country: string;
  /** Jurisdiction (state or province) code, DAJ. */
  jurisdiction: string;
  documentNumber: string;
  surname: string;
  givenNames: string;
  birthDate: string | null;
  expiryDate: string | null;
  issueDate: string | null;
  sex: 'M' | 'F' | 'X' | null;
  address?: { street?: string; city?: string; postalCode?: string };
  /** Every element found, by AAMVA element id (DAQ, DCS...). */
  elements: Record<string, string>;
}

export class AamvaFormatError extends Error {
  override readonly name = 'AamvaFormatError';
}

export function parseAamva(text: string): AamvaFields {
  const header = /(ANSI |AAMVA)(\d{6})(\d{2})(\d{2})?(\d{2})/.exec(text);
  if (!header) throw new AamvaFormatError('no AAMVA header (ANSI/AAMVA + issuer number)');
  const iin = header[2] ?? '';
  const version = Number(header[3]);
  const elements: Record<string, string> = {};
  let subfile: 'DL' | 'ID' = 'DL';
  // Data elements are separated by LF; the first element of a subfile follows its two-letter type directly.
  for (const rawLine of text.split(/[\n\r\x1e]+/)) {
    let line = rawLine;
    const start = /(?:^|\d)(DL|ID)(D[A-Z]{2}.*)$/.exec(line);
    if (start && line.includes(header[0])) {
      subfile = start[1] === 'ID' ? 'ID' : 'DL';
      line = start[2] ?? '';
    } else if (/^(DL|ID)D[A-Z]{2}/.test(line)) {
      subfile = line.startsWith('ID') ? 'ID' : 'DL';
      line = line.slice(2);
    }
    const m = /^(D[A-Z]{2})(.*)$/.exec(line.trim());
    if (m && m[1] && !(m[1] in elements)) elements[m[1]] = (m[2] ?? '').trim();
  }
  if (!elements.DAQ) throw new AamvaFormatError('no customer id number (DAQ) element');
  const country = (elements.DCG ?? '').toUpperCase();
  const given = [elements.DAC ?? elements.DCT ?? '', elements.DAD ?? '']
    .filter((s) => s && s !== 'NONE')
    .join(' ')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const sexCode = elements.DBC ?? '';
  const address = { street: elements.DAG, city: elements.DAI, postalCode: elements.DAK?.trim() };
  return {
    documentType: subfile === 'ID' ? 'id_card' : 'driving_licence',
    issuerIdentificationNumber: iin,
    aamvaVersion: version,
    country,
    jurisdiction: elements.DAJ ?? '',
    documentNumber: elements.DAQ,
    surname: elements.DCS ?? elements.DAB ?? '',
    givenNames: given,
    birthDate: aamvaDate(elements.DBB, country),
    expiryDate: aamvaDate(elements.DBA, country),
    issueDate: aamvaDate(elements.DBD, country),
    sex:
      sexCode === '1' || sexCode === 'M' ? 'M' : sexCode === '2' || sexCode === 'F' ? 'F' : sexCode === '9' || sexCode === 'X' ? 'X' : null,
    ...(address.street || address.city ? { address: Object.fromEntries(Object.entries(address).filter(([, v]) => v)) } : {}),
    elements,
  };
}

/** AAMVA dates are MMDDCCYY in the USA and CCYYMMDD in Canada; the country is not always present, so both are tried. */
export function aamvaDate(raw: string | undefined, country: string): string | null {
  if (!raw || !/^\d{8}$/.test(raw)) return null;
  const us = { y: raw.slice(4, 8), m: raw.slice(0, 2), d: raw.slice(2, 4) };
  const ca = { y: raw.slice(0, 4), m: raw.slice(4, 6), d: raw.slice(6, 8) };
  const order = country === 'CAN' ? [ca, us] : [us, ca];
  for (const c of order) {
    const iso = `${c.y}-${c.m}-${c.d}`;
    const d = new Date(`${iso}T00:00:00Z`);
    if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso) && Number(c.y) > 1900) return iso;
  }
  return null;
}
