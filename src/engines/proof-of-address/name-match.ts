import { compareNames } from '../screening/name-score.js';
import { prepareName } from '../screening/normalize.js';

export interface NameMatch {
  score: number;
  /** Document tokens that matched nothing of the subject's name and vice versa. */
  conflicting: string[];
}

/**
 * Compares the name printed on the document with the subject's name using the screening engine's
 * normalisation and token alignment (transliteration, honorifics, initials, word order), so a
 * "MRS A. O'BRIEN" on a bill and "Aoife O'Brien" in the request are judged the same way as in screening.
 */
export function matchHolderName(printed: string, subject: string): NameMatch {
  const cmp = compareNames(prepareName(printed, 'person'), prepareName(subject, 'person'));
  return { score: Math.round(cmp.score * 1000) / 1000, conflicting: [...cmp.conflictingQuery, ...cmp.conflictingCandidate] };
}
