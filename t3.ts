import { officialLists } from './bench/screening-data.js';
const { ofac, un, uk } = officialLists();
const all = [...ofac, ...un, ...uk];
const pats = process.argv.slice(2);
for (const p of pats) {
  const re = new RegExp(p, 'i');
  const hits = all.filter((e) => e.names.some((n) => re.test(n.full))).slice(0, 4);
  console.log(p, '=>', JSON.stringify(hits.map((e) => e.names.slice(0, 4).map((n) => n.full))));
}
