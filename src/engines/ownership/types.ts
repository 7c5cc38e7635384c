// Graph model for ownership: nodes and edges in BODS 0.4 terms, kept in plain Maps.

/** A share in percent (0–100). Exclusive flags keep "more than 25 %" apart from "25 % or more". */
export interface ShareRange {
  min: number;
  max: number;
  minExclusive: boolean;
  maxExclusive: boolean;
}

export type NodeKind = 'entity' | 'person' | 'unknown';

export interface OwnershipNode {
  id: string;
  kind: NodeKind;
  /** BODS entityType.type or personType. */
  type?: string;
  name?: string;
  /** BODS unspecifiedReason (or a GLEIF exception reason) when the party is not identified. */
  unspecifiedReason?: string;
  listed?: boolean;
  statementId?: string;
}

export interface Interest {
  /** BODS interestType code; undefined when the source gave none. */
  type?: string;
  directOrIndirect: 'direct' | 'indirect' | 'unknown';
  share?: ShareRange;
  startDate?: string;
  endDate?: string;
  beneficialOwnershipOrControl?: boolean;
}

export interface OwnershipEdge {
  id: string;
  /** Interested party (owner). */
  from: string;
  /** Subject (owned entity). */
  to: string;
  interests: Interest[];
  isComponent: boolean;
  componentIds: string[];
  source?: string;
  statementId?: string;
  /**
   * Not an interest: `from` and `to` are records of the same legal entity in two registers (the step from a
   * record without owners to the other register's record that names them). Carries everything across unchanged.
   */
  sameEntity?: boolean;
}

export interface OwnershipGraph {
  nodes: Map<string, OwnershipNode>;
  edges: Map<string, OwnershipEdge>;
  /** subject id → ids of edges whose subject it is. */
  inbound: Map<string, string[]>;
}

export function emptyGraph(): OwnershipGraph {
  return { nodes: new Map(), edges: new Map(), inbound: new Map() };
}

export function addEdge(g: OwnershipGraph, e: OwnershipEdge): void {
  const old = g.edges.get(e.id);
  if (old)
    g.inbound.set(
      old.to,
      (g.inbound.get(old.to) ?? []).filter((x) => x !== e.id),
    );
  g.edges.set(e.id, e);
  const list = g.inbound.get(e.to) ?? [];
  list.push(e.id);
  g.inbound.set(e.to, list);
}

export function removeEdge(g: OwnershipGraph, id: string): void {
  const old = g.edges.get(id);
  if (!old) return;
  g.edges.delete(id);
  g.inbound.set(
    old.to,
    (g.inbound.get(old.to) ?? []).filter((x) => x !== id),
  );
}
