import { isFaceInputError } from '../../../engines/face/index.js';
import { DocumentInputError } from '../../../engines/document/image-input.js';
import type { CheckVerdict, Signal } from '../../../engines/signal.js';
import { AppError, invalid } from '../../../platform/errors.js';
import { decodeUpload, IMAGE_TYPES, type MediaInput } from '../kernel/index.js';

/** A decoded image upload, kept with its request field name so engine errors can name it. */
export interface ImageUpload extends MediaInput {
  field: string;
}

export function decodeImage(field: string, value: string, kind: string, maxBytes: number): ImageUpload {
  const { data, contentType } = decodeUpload(field, value, { maxBytes, accept: IMAGE_TYPES });
  return { field, kind, data, contentType };
}

/**
 * Runs an engine call and turns its typed input errors into 400 invalid_request naming the request
 * field (`rename` maps the engine's field, e.g. `frames[0]`, to the caller's, e.g. `image`).
 * Everything else propagates: an engine crash is our 500, not the caller's fault.
 */
export async function engineCall<T>(run: () => Promise<T>, rename: (engineField: string) => string = (f) => f): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toInputError(err, rename) ?? err;
  }
}

export function toInputError(err: unknown, rename: (engineField: string) => string = (f) => f, documentField = 'image'): AppError | null {
  if (isFaceInputError(err)) return invalid(rename(err.field), `${rename(err.field)}: ${err.message} (${err.reason}).`);
  if (err instanceof DocumentInputError) return invalid(documentField, `${documentField}: ${err.message} (${err.code}).`);
  return null;
}

/** Reason codes of a face check: the names of the signals that failed, unless it passed. */
export function reasonsOf(verdict: CheckVerdict, signals: Signal[]): string[] {
  if (verdict === 'passed') return [];
  return [...new Set(signals.filter((s) => s.passed === false).map((s) => s.name))];
}

export function round4(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}
