import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { addressAllowed, checkDestinationUrl, guardedLookup } from '../../../platform/net-guard.js';
import { decodeUpload, sha256Hex, sniffContentType, type MediaInput } from '../../checks/index.js';
import { AppError } from '../../../platform/errors.js';
import type { ImportRecord } from './schemas.js';
import { RecordProblem } from './schemas.js';
import type { ImportSettings } from './settings.js';

/** Types the sniffer recognises: a declared one of these must be what the bytes are. */
const RECOGNISED = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/gif', 'image/tiff', 'application/pdf'];

/**
 * The stored content type: sniffed from the bytes. A declared type is checked, never trusted: if it
 * is one the sniffer recognises, the bytes must be of that type; bytes of no recognised type are
 * kept as application/octet-stream (evidence is preserved, never served inline).
 */
function contentTypeOf(data: Buffer, declared: string | undefined, field: string): string {
  const sniffed = sniffContentType(data);
  const d = declared
    ?.split(';')[0]!
    .trim()
    .toLowerCase()
    .replace(/^image\/jpg$/, 'image/jpeg');
  if (d && d !== sniffed && (RECOGNISED.includes(d) || sniffed !== 'application/octet-stream'))
    throw new RecordProblem(`${field}.content_type`, `${field}.content_type says ${d} but the bytes are ${sniffed}.`);
  return sniffed;
}

/** An embedded medium, decoded as every upload is (decodeUpload), its error naming the record's field. */
function decodeEmbedded(value: string, field: string, maxBytes: number): Buffer {
  try {
    return decodeUpload(`${field}.data`, value, { maxBytes }).data;
  } catch (err) {
    if (err instanceof AppError) throw new RecordProblem(err.field ?? `${field}.data`, err.message);
    throw err;
  }
}

/**
 * GETs one file: https only unless private networks are allowed, literal and resolved private
 * addresses refused by default, no redirects followed, at most maxBytes, a hard timeout.
 * Resolves the bytes or a message saying what went wrong.
 */
export function fetchMedium(
  rawUrl: string,
  opts: { allowPrivateNetworks: boolean; maxBytes: number; timeoutMs: number },
): Promise<Buffer | string> {
  const problem = checkDestinationUrl(rawUrl, {
    requireHttps: !opts.allowPrivateNetworks,
    allowPrivateNetworks: opts.allowPrivateNetworks,
  });
  if (problem) return Promise.resolve(problem);
  const url = new URL(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !addressAllowed(host, opts.allowPrivateNetworks))
    return Promise.resolve('url must not point to a loopback, private or link-local address');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (v: Buffer | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(v);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      headers: { 'user-agent': 'Verity-Import/1', accept: '*/*' },
      lookup: guardedLookup(opts.allowPrivateNetworks),
      timeout: opts.timeoutMs,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(`the download did not finish within ${opts.timeoutMs} ms`);
    }, opts.timeoutMs);
    req.on('timeout', () => {
      req.destroy();
      finish(`the download did not finish within ${opts.timeoutMs} ms`);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish(
        err.code === 'EADDRNOTALLOWED'
          ? 'url must not point to a loopback, private or link-local address'
          : `the download failed (${err.code ?? 'network error'})`,
      );
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        req.destroy();
        return finish(
          status >= 300 && status < 400
            ? `the server answered ${status} (a redirect, which is not followed)`
            : `the server answered ${status}`,
        );
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        req.destroy();
        return finish(`the file is larger than ${opts.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          req.destroy();
          return finish(`the file is larger than ${opts.maxBytes} bytes`);
        }
        chunks.push(c);
      });
      res.on('end', () => finish(size === 0 ? 'the file is empty' : Buffer.concat(chunks)));
      res.on('error', () => finish('the download was interrupted'));
    });
    req.end();
  });
}

/**
 * The record's media as files to store: embedded ones decoded, referenced ones fetched (in order,
 * a few at a time) and checked against their sha256. Runs outside any transaction. Throws
 * RecordProblem naming the field (records[i].media[j].…) for the first medium that fails.
 */
export async function resolveMedia(record: ImportRecord, index: number, settings: ImportSettings, deadline: number): Promise<MediaInput[]> {
  const items = record.media ?? [];
  const out: MediaInput[] = new Array(items.length);
  const base = `records[${index}].media`;
  const embedded: number[] = [];
  const referenced: number[] = [];
  items.forEach((m, j) => ('url' in m ? referenced : embedded).push(j));
  for (const j of embedded) {
    const m = items[j] as { kind: string; content_type?: string; data: string };
    const data = decodeEmbedded(m.data, `${base}[${j}]`, settings.maxMediaBytes);
    out[j] = { kind: m.kind, contentType: contentTypeOf(data, m.content_type, `${base}[${j}]`), data };
  }
  const CONCURRENCY = 4;
  for (let k = 0; k < referenced.length; k += CONCURRENCY) {
    const batch = referenced.slice(k, k + CONCURRENCY);
    const got = await Promise.all(
      batch.map((j) => {
        const m = items[j] as { url: string };
        const left = deadline - Date.now();
        if (left <= 0)
          return Promise.resolve('the time this request may spend downloading media ran out; send this record again in a smaller request');
        return fetchMedium(m.url, {
          allowPrivateNetworks: settings.allowPrivateNetworks,
          maxBytes: settings.maxMediaBytes,
          timeoutMs: Math.min(settings.fetchTimeoutMs, left),
        });
      }),
    );
    batch.forEach((j, n) => {
      const m = items[j] as { kind: string; content_type?: string; url: string; sha256: string };
      const r = got[n]!;
      const field = `${base}[${j}]`;
      if (typeof r === 'string') throw new RecordProblem(`${field}.url`, `${field}.url: ${r}.`);
      const actual = sha256Hex(r);
      if (actual !== m.sha256.toLowerCase())
        throw new RecordProblem(`${field}.sha256`, `${field}.sha256 does not match the downloaded file (its SHA-256 is ${actual}).`);
      out[j] = { kind: m.kind, contentType: contentTypeOf(r, m.content_type, field), data: r };
    });
  }
  return out;
}
