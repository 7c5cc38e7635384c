export type TextInputErrorCode =
  'empty_input' | 'too_large' | 'unsupported_media_type' | 'media_type_mismatch' | 'too_many_pages' | 'unreadable' | 'encrypted';

/** Bad input, as opposed to an engine fault: the HTTP layer maps it to a 4xx with `code`. */
export class TextInputError extends Error {
  readonly code: TextInputErrorCode;

  constructor(code: TextInputErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TextInputError';
    this.code = code;
  }
}
