// pdfjs-dist, loaded without its side effects on the rest of the process.
//
// The legacy build (the one that runs on Node 20) bundles core-js, and importing it replaces four
// built-ins process-wide with JavaScript versions of proposals Node 20 lacks (JSON.rawJSON, JSON.parse
// with source): JSON.stringify (measured 6.5x slower on a small object), JSON.parse, Array.prototype.push
// and Function.prototype.toString (so the replacements print as native code). Every request of the
// service paid for it. Here the originals are saved, pdfjs and its worker module are loaded (the worker
// module is handed to pdfjs as `globalThis.pdfjsWorker`, so it is never imported later, behind our
// back), and the originals are put back. pdfjs needs none of those proposals. Additions core-js makes
// (Promise.withResolvers, Map.prototype.getOrInsert, Uint8Array.fromBase64…) stay: pdfjs uses them.
const saved = [
  [JSON, 'stringify'],
  [JSON, 'parse'],
  [Array.prototype, 'push'],
  [Function.prototype, 'toString'],
].map(([owner, key]) => ({
  owner: owner as object,
  key: key as string,
  descriptor: Object.getOwnPropertyDescriptor(owner, key as string)!,
}));

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
// The worker module ships no type declarations; only its presence matters here.
const workerModule: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
const worker: unknown = await import(workerModule);
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;

for (const { owner, key, descriptor } of saved) Object.defineProperty(owner, key, descriptor);

export { pdfjs };
