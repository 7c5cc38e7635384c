import { readFileSync } from 'node:fs';
import { readDocument, shutdownDocumentEngine } from '/work/wt-mrz/src/engines/document/read-document.ts';
for (const f of process.argv.slice(2)) {
const r = await readDocument(readFileSync(f), { now: new Date('2026-01-01'), acceptSpecimens: true });
console.log(f.split('/').pop(), r.verdict, r.reasons.join(','), r.mrz?.lines, JSON.stringify(r.mrz?.fieldConfidence.filter(x => x.level !== 'high')));
}
await shutdownDocumentEngine();
