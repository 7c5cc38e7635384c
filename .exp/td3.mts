import { readDocument, shutdownDocumentEngine } from '/work/wt-mrz/src/engines/document/read-document.ts';
import { renderDocument } from '/work/wt-mrz/test/fixtures/documents/render.ts';
import { ANNA } from '/work/wt-mrz/test/fixtures/documents/specimen-mrz.ts';
const r = await readDocument(await renderDocument({ kind: 'td3', person: ANNA, portrait: (await import('node:fs')).readFileSync('/work/shared/data/faces/deepface_subset/images/img5.jpg') }), { now: new Date('2026-01-01'), acceptSpecimens: true });
console.log(r.signals.find(s=>s.name==='mrz_field_ambiguous'), r.verdict, r.reasons, r.mrz?.lines, JSON.stringify(r.mrz?.fieldConfidence.filter(f => f.level !== 'high')), r.fields?.documentType);
await shutdownDocumentEngine();
