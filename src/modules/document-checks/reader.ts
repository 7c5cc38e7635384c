import { shutdownDocumentEngine } from '../../engines/document/read-document.js';

/**
 * The document engine keeps shared tesseract workers (module state inside the engine). Both the
 * document check and face-match's portrait crop use them; the last app to close shuts them down.
 */
let users = 0;

export function retainDocumentReader(): () => Promise<void> {
  users++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--users === 0) await shutdownDocumentEngine();
  };
}
