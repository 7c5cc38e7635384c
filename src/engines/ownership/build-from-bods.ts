import { fromBodsShare } from './share-range.js';
import { addEdge, emptyGraph, removeEdge, type Interest, type OwnershipGraph } from './types.js';

type Json = Record<string, unknown>;

export interface BuildOptions {
  /** Only statements dated on or before this day (YYYY-MM-DD) count. */
  asOf?: string;
  source?: string;
}

const obj = (x: unknown): Json => (x && typeof x === 'object' ? (x as Json) : {});
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/**
 * Builds a graph from BODS 0.4 statements in stream order. A later statement for the same recordId
 * replaces the earlier one and a `closed` one removes it, so a package with history gives its latest state
 * (or the state as of `asOf`).
 */
export function buildFromBods(statements: readonly unknown[], opts: BuildOptions = {}): OwnershipGraph {
  const g = emptyGraph();
  let anon = 0;
  for (const raw of statements) {
    const s = obj(raw);
    const date = str(s['statementDate'])?.slice(0, 10);
    if (opts.asOf && date && date > opts.asOf) continue;
    const id = str(s['recordId']);
    const d = obj(s['recordDetails']);
    const statementId = str(s['statementId']);
    if (!id) continue;
    const closed = s['recordStatus'] === 'closed';
    if (s['recordType'] === 'entity') {
      if (closed) continue; // the entity stays known; its edges are closed by their own statements
      const et = obj(d['entityType']);
      const reason = str(obj(d['unspecifiedEntityDetails'])['reason']);
      g.nodes.set(id, {
        id,
        kind: 'entity',
        type: str(et['type']),
        name: str(d['name']),
        statementId,
        ...(reason ? { unspecifiedReason: reason } : {}),
        ...(obj(d['publicListing'])['hasPublicListing'] === true ? { listed: true } : {}),
      });
    } else if (s['recordType'] === 'person') {
      if (closed) continue;
      const names = Array.isArray(d['names']) ? (d['names'] as Json[]) : [];
      const reason = str(obj(d['unspecifiedPersonDetails'])['reason']);
      g.nodes.set(id, {
        id,
        kind: 'person',
        type: str(d['personType']),
        name: str(names[0]?.['fullName']),
        statementId,
        ...(reason ? { unspecifiedReason: reason } : {}),
      });
    } else if (s['recordType'] === 'relationship') {
      if (closed) {
        removeEdge(g, id);
        continue;
      }
      const endpoint = (x: unknown): string | undefined => {
        if (typeof x === 'string') return x;
        const reason = str(obj(x)['reason']);
        if (!reason) return undefined;
        const nid = `unspecified:${id}:${anon++}`;
        g.nodes.set(nid, { id: nid, kind: 'unknown', unspecifiedReason: reason, name: str(obj(x)['description']) });
        return nid;
      };
      const to = endpoint(d['subject']);
      const from = endpoint(d['interestedParty']);
      if (!to || !from) continue;
      const interests: Interest[] = (Array.isArray(d['interests']) ? (d['interests'] as unknown[]) : []).map((i) => {
        const o = obj(i);
        const share = fromBodsShare(o['share'] ? obj(o['share']) : undefined);
        const doi = str(o['directOrIndirect']);
        return {
          type: str(o['type']),
          directOrIndirect: doi === 'direct' || doi === 'indirect' ? doi : 'unknown',
          ...(share ? { share } : {}),
          ...(str(o['startDate']) ? { startDate: str(o['startDate']) } : {}),
          ...(str(o['endDate']) ? { endDate: str(o['endDate']) } : {}),
          ...(typeof o['beneficialOwnershipOrControl'] === 'boolean'
            ? { beneficialOwnershipOrControl: o['beneficialOwnershipOrControl'] as boolean }
            : {}),
        };
      });
      addEdge(g, {
        id,
        from,
        to,
        interests,
        isComponent: d['isComponent'] === true,
        componentIds: Array.isArray(d['componentRecords'])
          ? (d['componentRecords'] as unknown[]).filter((x): x is string => typeof x === 'string')
          : [],
        ...(statementId ? { statementId } : {}),
        ...(opts.source ? { source: opts.source } : {}),
      });
    }
  }
  return g;
}
