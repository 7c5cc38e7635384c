import type { ListEntity } from '../../engines/screening/types.js';
import type { AttributionEntry, Category, ListRef } from '../../engines/wallets/index.js';
import { decodeText, type ListInput } from './list-source.js';
import { parseOfacAdvancedXml } from './ofac-advanced-xml.js';
import { parseOfacCsv } from './ofac-csv.js';

// Digital-currency addresses of the OFAC SDN list as wallet attribution entries. Three inputs:
// the legacy CSV (remarks "Digital Currency Address - XBT 1ABC…;", parsed by ofac-csv/ofac-remarks),
// SDN_ADVANCED.XML (features typed "Digital Currency Address - <code>", parsed by ofac-advanced-xml),
// and the per-chain text files that 0xB10C/ofac-sanctioned-digital-currency-addresses derives from
// the advanced XML (sanctioned_addresses_<CODE>.txt, one address a line, no entity). Entries keep
// OFAC's code as the chain (XBT, USDT …); the engine resolves codes and tokens to chains and keeps
// entries whose address does not parse as rejected with the reason.

const PREFIX = 'crypto:';

/** Programmes whose listing also means terrorist financing. */
const TF_PROGRAMS = new Set(['SDGT', 'FTO', 'SDT']);

/**
 * The crypto identifiers (`crypto:<code>`) of any list's entities as attribution entries: OFAC's CSV
 * remarks and advanced XML, a custom CSV's `crypto:XBT:1abc`, a stored snapshot of any source.
 * Category sanctions; SDGT/FTO/SDT programmes add terrorist financing.
 */
export function cryptoEntriesFromEntities(entities: Iterable<ListEntity>, list: ListRef): AttributionEntry[] {
  return fromEntities(entities, list);
}

function fromEntities(entities: Iterable<ListEntity>, list: ListRef): AttributionEntry[] {
  const out: AttributionEntry[] = [];
  for (const e of entities) {
    const entity = { id: e.id.replace(/^ofac-(sdn|cons):/, ''), name: e.names[0]?.full ?? '' };
    const program = e.programs.join(' ');
    const categories: Category[] = ['sanctions'];
    if (e.programs.some((p) => TF_PROGRAMS.has(p.replace(/\]|\[/g, '')))) categories.push('terrorist_financing');
    for (const id of e.identifiers) {
      if (!id.type.startsWith(PREFIX)) continue;
      for (const category of categories) {
        out.push({
          chain: id.type.slice(PREFIX.length),
          address: id.value.replace(/[;.,]$/, ''),
          category,
          list,
          entity,
          ...(program ? { program } : {}),
        });
      }
    }
  }
  return out;
}

/** From the legacy CSV set (sdn.csv, optionally with sdn_comments.csv for long remarks). */
export function ofacCryptoFromCsv(input: ListInput, version: string): AttributionEntry[] {
  return fromEntities(parseOfacCsv(input), { name: 'ofac_sdn', version });
}

/** From SDN_ADVANCED.XML. */
export function ofacCryptoFromAdvancedXml(input: ListInput, version: string): AttributionEntry[] {
  return fromEntities(parseOfacAdvancedXml(input), { name: 'ofac_sdn', version });
}

/**
 * From per-chain address files: file name (`sanctioned_addresses_XBT.txt`) → contents. JSON files
 * (a JSON array of strings) are accepted too. No entity is known in this format.
 */
export function ofacCryptoFromAddressFiles(files: Record<string, string | Uint8Array>, version: string): AttributionEntry[] {
  const list = { name: 'ofac_sdn', version };
  const out: AttributionEntry[] = [];
  for (const [name, body] of Object.entries(files)) {
    const m = /sanctioned_addresses_([A-Z0-9]+)\.(txt|json)$/i.exec(name);
    if (!m) continue;
    const text = decodeText(body);
    const addrs = m[2]!.toLowerCase() === 'json' ? (JSON.parse(text) as string[]) : text.split(/\r?\n/);
    for (const a of addrs) {
      const address = a.trim();
      if (address) out.push({ chain: m[1]!.toUpperCase(), address, category: 'sanctions', list });
    }
  }
  return out;
}

/**
 * OpenSanctions / FollowTheMoney CryptoWallet entities (JSON lines): publicKey, currency and the
 * holder's id. Other schemata are ignored; the holder's name is filled from the same file when present.
 */
export function openSanctionsCryptoWallets(input: string | Uint8Array, version: string): AttributionEntry[] {
  const list = { name: 'opensanctions', version };
  const lines = decodeText(input)
    .split(/\r?\n/)
    .filter((l) => l.trim());
  const records = lines.map(
    (l) => JSON.parse(l) as { id: string; schema: string; caption?: string; properties?: Record<string, string[]> },
  );
  const names = new Map(records.map((r) => [r.id, r.caption ?? r.properties?.name?.[0] ?? '']));
  const out: AttributionEntry[] = [];
  for (const r of records) {
    if (r.schema !== 'CryptoWallet') continue;
    const p = r.properties ?? {};
    const holder = p.holder?.[0];
    for (const address of p.publicKey ?? []) {
      const chain = p.currency?.[0] ?? p.currencySymbol?.[0] ?? '';
      out.push({
        chain,
        address,
        category: 'sanctions',
        list,
        ...(holder ? { entity: { id: holder, name: names.get(holder) ?? '' } } : { entity: { id: r.id } }),
      });
    }
  }
  return out;
}
