// Known transfers: KYT transactions with crypto details and imported transfer files
// (CSV or JSON lines of chain, tx_hash, from, to, amount [, asset]).

export interface Transfer {
  chain: string;
  /** Token or native asset; transfers of different assets never share a value sum. */
  asset?: string;
  txHash?: string;
  from: string;
  to: string;
  /** Decimal string in the asset's units. */
  amount: string;
}

const FIELDS: Record<string, keyof Transfer> = {
  chain: 'chain',
  asset: 'asset',
  tx_hash: 'txHash',
  txhash: 'txHash',
  hash: 'txHash',
  from: 'from',
  to: 'to',
  amount: 'amount',
  value: 'amount',
};

/** Parses CSV (with a header) or JSON lines; a line missing a required field is an error naming it. */
export function parseTransferLines(text: string): Transfer[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
  if (!lines.length) return [];
  const json = lines[0]!.trimStart().startsWith('{');
  const header = json ? [] : lines[0]!.split(',').map((h) => FIELDS[h.trim().toLowerCase()]);
  const out: Transfer[] = [];
  lines.slice(json ? 0 : 1).forEach((line, i) => {
    const rec: Partial<Record<keyof Transfer, string>> = {};
    if (json) {
      for (const [k, v] of Object.entries(JSON.parse(line) as Record<string, unknown>)) {
        const f = FIELDS[k.toLowerCase()];
        if (f && v !== null && v !== undefined) rec[f] = String(v);
      }
    } else {
      line.split(',').forEach((c, j) => {
        const f = header[j];
        if (f) rec[f] = c.trim();
      });
    }
    for (const f of ['chain', 'from', 'to', 'amount'] as const) {
      if (!rec[f]) throw new Error(`transfer line ${i + (json ? 1 : 2)}: ${f} is required`);
    }
    out.push(rec as Transfer);
  });
  return out;
}
