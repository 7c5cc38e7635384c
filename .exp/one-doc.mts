import { readFileSync } from 'node:fs';
import { readDocument, shutdownDocumentEngine } from '/work/wt-mrz/src/engines/document/read-document.ts';
const r = await readDocument(readFileSync(process.argv[2]!), { now: new Date('2026-01-01'), acceptSpecimens: true });
console.log(r.verdict, r.reasons, r.mrz?.lines, r.mrz?.checks, r.signals.filter(s => s.name.startsWith('mrz')));
await shutdownDocumentEngine();
