// A local stand-in for the GLEIF API and the Companies House API, on loopback, answering with recorded
// fixtures (test/fixtures/kyb-live: GLEIF answers copied from ../shared/data/kyb/gleif_api, Companies House
// answers as described in its README). It routes the paths the real APIs have, filters searches over the
// records it holds, checks Companies House's basic auth, and can be told to stall or refuse a path.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

const ROOT = new URL('../fixtures/kyb-live/', import.meta.url).pathname;
export const GLEIF_FIXTURES = `${ROOT}gleif_api/`;
/** Answers written for the tests (see its README), read only where the recorded set has none. */
const GLEIF_WRITTEN = `${ROOT}gleif_api_written/`;
const CH = `${ROOT}companies_house/`;

export interface RegistryApiServer {
  gleifUrl: string;
  companiesHouseUrl: string;
  /** Every request: path with query, and the Authorization header as sent. */
  requests: { path: string; authorization: string | undefined }[];
  /** A path (prefix) answered after this many ms. */
  delays: Map<string, number>;
  /** A path (prefix) answered with this status. */
  statuses: Map<string, number>;
  close(): Promise<void>;
}

const read = (f: string): unknown => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined);

type Json = Record<string, unknown>;
const names = (doc: Json): string[] => {
  const e = ((doc['data'] as Json)['attributes'] as Json)['entity'] as Json;
  return [(e['legalName'] as Json)['name'] as string, ...((e['otherNames'] as Json[]) ?? []).map((n) => n['name'] as string)];
};

/** A recorded GLEIF answer, else a written one. */
const answer = (f: string): unknown => read(`${GLEIF_FIXTURES}${f}`) ?? read(`${GLEIF_WRITTEN}${f}`);

function gleif(path: string, query: URLSearchParams): unknown {
  const parts = path.split('/').filter(Boolean); // lei-records[/LEI[/what]]
  if (parts[0] !== 'lei-records') return undefined;
  if (parts.length === 1) {
    const records = readdirSync(`${GLEIF_FIXTURES}lei_records`)
      .filter((f) => f.startsWith('single_lei_record_'))
      .sort()
      .map((f) => read(`${GLEIF_FIXTURES}lei_records/${f}`) as Json);
    const name = query.get('filter[entity.names]');
    const number = query.get('filter[entity.registeredAs]');
    const words = (name ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const found = records.filter((r) =>
      number
        ? (((r['data'] as Json)['attributes'] as Json)['entity'] as Json)['registeredAs'] === number
        : names(r).some((n) => words.every((w) => n.toLowerCase().includes(w))),
    );
    const size = Number(query.get('page[size]') ?? 10);
    return { meta: { goldenCopy: { publishDate: '2025-05-15T00:00:00Z' } }, data: found.slice(0, size).map((r) => r['data']) };
  }
  const [, lei, what] = parts;
  if (!what) return answer(`lei_records/single_lei_record_${lei}.json`);
  if (/-parent-relationship$/.test(what)) return answer(`relationships/${what}_${lei}.json`);
  if (/-parent-reporting-exception$/.test(what)) return answer(`reporting_exceptions/${what}_${lei}.json`);
  if (/-parent$/.test(what)) return answer(`lei_records/${what}_${lei}.json`);
  return undefined;
}

function companiesHouse(path: string, query: URLSearchParams): unknown {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'search' && parts[1] === 'companies') {
    const words = (query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const all = read(`${CH}search_companies.json`) as Json;
    return { ...all, items: (all['items'] as Json[]).filter((i) => words.every((w) => String(i['title']).toLowerCase().includes(w))) };
  }
  if (parts[0] !== 'company' || !parts[1]) return undefined;
  const n = parts[1];
  if (parts.length === 2) return read(`${CH}company_${n}.json`);
  if (parts[2] === 'officers') return read(`${CH}officers_${n}.json`);
  if (parts[2] === 'persons-with-significant-control') return read(`${CH}psc_${n}.json`);
  return undefined;
}

/** Starts the server on 127.0.0.1; Companies House calls must carry `apiKey` as the basic-auth user. */
export async function startRegistryApiServer(apiKey: string): Promise<RegistryApiServer> {
  const requests: RegistryApiServer['requests'] = [];
  const delays = new Map<string, number>();
  const statuses = new Map<string, number>();
  const expectedAuth = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const forced = [...statuses].find(([p]) => url.pathname.startsWith(p))?.[1];
    if (forced) return send(forced, { errors: [{ status: String(forced) }] });
    let body: unknown;
    if (url.pathname.startsWith('/gleif/api/v1/')) body = gleif(url.pathname.slice('/gleif/api/v1/'.length), url.searchParams);
    else if (url.pathname.startsWith('/ch/')) {
      if (req.headers.authorization !== expectedAuth) return send(401, { error: 'Invalid Authorization' });
      body = companiesHouse(url.pathname.slice('/ch/'.length), url.searchParams);
    }
    if (body === undefined) return send(404, { errors: [{ status: '404', title: 'Not Found' }] });
    send(200, body);
  };
  const server: Server = createServer((req, res) => {
    // Recorded on arrival: a stalled request belongs to the test that sent it, not to the one running when it is answered.
    requests.push({ path: req.url ?? '/', authorization: req.headers.authorization });
    const delay = [...delays].find(([p]) => (req.url ?? '').startsWith(p))?.[1];
    if (delay) setTimeout(() => handle(req, res), delay);
    else handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    gleifUrl: `http://127.0.0.1:${port}/gleif/api/v1`,
    companiesHouseUrl: `http://127.0.0.1:${port}/ch`,
    requests,
    delays,
    statuses,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
