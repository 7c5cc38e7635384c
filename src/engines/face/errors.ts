/**
 * Errors for input the face engine refuses. They all mean "the caller sent something we will not
 * process" and map to HTTP 400 `invalid_request`; `reason` says which limit was hit. A face that is
 * missing or several faces are not errors: they are outcomes with signals.
 */
export type FaceInputReason =
  | 'image_empty'
  | 'image_too_large' // bytes over the limit
  | 'image_too_many_pixels' // decompression bomb guard
  | 'image_unsupported_format'
  | 'image_decode_failed'
  | 'too_many_frames';

export class FaceInputError extends Error {
  override readonly name = 'FaceInputError';
  readonly code = 'invalid_request';
  readonly status = 400;
  constructor(
    readonly reason: FaceInputReason,
    message: string,
    readonly field = 'image',
  ) {
    super(message);
  }

  /** Carried through the worker boundary as `details` (see platform/worker-pool serializeError). */
  get details(): { reason: FaceInputReason; field: string } {
    return { reason: this.reason, field: this.field };
  }
}

export function isFaceInputError(err: unknown): err is FaceInputError {
  return err instanceof FaceInputError;
}
