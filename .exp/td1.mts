import { readDocument, shutdownDocumentEngine } from '/work/wt-mrz/src/engines/document/read-document.ts';
import { DISTORTIONS, photograph } from '/work/wt-mrz/test/fixtures/documents/photograph.ts';
import { renderDocument } from '/work/wt-mrz/test/fixtures/documents/render.ts';
import { PETER, ANNA } from '/work/wt-mrz/test/fixtures/documents/specimen-mrz.ts';
const r = await readDocument(await photograph(await renderDocument({ kind: 'td1', person: PETER }), DISTORTIONS.rotated_minus7deg ?? {}), { now: new Date('2026-01-01'), acceptSpecimens: true });
console.log(r.verdict, r.reasons, r.mrz?.lines, JSON.stringify(r.mrz?.fieldConfidence.filter(f => f.level !== 'high')), r.signals.find(s => s.name === 'mrz_field_ambiguous'));
await shutdownDocumentEngine();
