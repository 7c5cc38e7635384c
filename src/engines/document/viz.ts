import { signal, type Signal } from '../signal.js';
import type { GrayImage } from './image-ops.js';
import { vizRegion } from './layout.js';
import type { MrzBand } from './locate.js';
import type { MrzOcr } from './mrz-ocr.js';
import type { MrzFormat } from './mrz-parse.js';
import type { FieldConfidence } from './mrz-vote.js';
import type { DocumentFields } from './types.js';

/**
 * MRZ versus visual inspection zone: the printed surname and document number must appear in the text
 * beside the portrait. A forger who edits the printed data but not the MRZ (or the reverse) is caught here.
 * Only judged when the zone reads as text at all, and only for formats whose names sit on the MRZ side.
 */

export interface VizComparison {
  readable: boolean;
  ocrConfidence: number;
  documentNumberFound: boolean | null;
  surnameFound: boolean | null;
  givenNamesFound: boolean | null;
  /** Both looked for and neither found in readable text. */
  mismatch: boolean;
  /**
   * The zone is the holder's (the document number is found in it) but the MRZ surname or given names are
   * not: names have no check digit, so the two zones disagreeing is flagged rather than either trusted.
   */
  nameMismatch: boolean;
  /**
   * A name is in the readable zone only approximately (one or two letters differ): the MRZ and the
   * printed zone spell the holder's name differently (an OCR-B M read as H, a dropped letter). Names have
   * no check digit, so neither spelling is trusted and the document goes to review.
   */
  nameDisagreement: boolean;
  /** The names that disagree (`surname`, `given_names`). */
  disagreeingNames: string[];
  /**
   * MRZ names every part of which (three letters or more) is a whole word of the zone's text, spelt exactly, whether or
   * not the zone read cleanly: a second reading of the name, in another font and zone by another engine. A misread
   * MRZ letter would have to be misread the same way there too.
   */
  namesSpelt: ('surname' | 'givenNames')[];
  signals: Signal[];
}

const MIN_WORDS = 4;
/** Mean LSTM confidence below which the zone is treated as unreadable (calibration in docs/documents.md). */
const MIN_CONFIDENCE = 70;

export async function compareVisualZone(
  gray: GrayImage,
  band: MrzBand,
  flipped: boolean,
  format: MrzFormat,
  fields: DocumentFields,
  ocr: Pick<MrzOcr, 'recogniseText'>,
): Promise<VizComparison | null> {
  return compareVisualZoneText(await readVisualZone(gray, band, flipped, format, ocr), fields);
}

/** The visual zone's text as the LSTM reader reads it (what `compareVisualZoneText` compares); null without a zone. */
export interface VisualZoneText {
  text: string;
  confidence: number;
}

/**
 * Reads the visual zone beside an MRZ band: it depends on the band, its orientation and the format only, not on
 * the fields read, so a check can start it as soon as a valid reading has placed the band (read-document.ts).
 */
export async function readVisualZone(
  gray: GrayImage,
  band: MrzBand,
  flipped: boolean,
  format: MrzFormat,
  ocr: Pick<MrzOcr, 'recogniseText'>,
): Promise<VisualZoneText | null> {
  const region = vizRegion(gray, band, flipped, format);
  return region ? ocr.recogniseText(region) : null;
}

/** The MRZ fields looked for in the visual zone's text (null: no zone). */
export function compareVisualZoneText(read: VisualZoneText | null, fields: DocumentFields): VizComparison | null {
  if (!read) return null;
  const text = normalise(read.text);
  const words = text.split(' ').filter((w) => /^[A-Z]{3,}$/.test(w));
  // Guilloches and "SPECIMEN" overprints make the LSTM reader produce confident-looking garbage; only a
  // clean read is allowed to count as evidence of a mismatch.
  const readable = words.length >= MIN_WORDS && read.confidence >= MIN_CONFIDENCE;
  const documentNumberFound =
    readable && fields.documentNumber.length >= 5 ? containsFuzzy(text, fields.documentNumber.replace(/\s/g, '')) : null;
  const surnameParts = fields.surname.split(' ').filter((p) => p.length >= 2);
  const surnameFound = readable && surnameParts.length > 0 ? surnameParts.every((p) => containsFuzzy(text, p)) : null;
  const givenParts = fields.givenNames.split(' ').filter((p) => p.length >= 2);
  const givenNamesFound = readable && givenParts.length > 0 ? givenParts.every((p) => containsFuzzy(text, p)) : null;
  const mismatch = documentNumberFound === false && surnameFound === false;
  const nameMismatch = documentNumberFound === true && (surnameFound === false || givenNamesFound === false);
  // Found, but only approximately: the two zones spell the name differently.
  const exact = (parts: string[]): boolean => parts.every((p) => containsExact(text, p));
  const disagreeingNames = [
    ...(surnameFound === true && !exact(surnameParts) ? ['surname'] : []),
    ...(givenNamesFound === true && !exact(givenParts) ? ['given_names'] : []),
  ];
  const nameDisagreement = !nameMismatch && disagreeingNames.length > 0;
  const zoneWords = new Set(text.split(' '));
  const spelt = (name: string): boolean => {
    const parts = name.split(' ').filter((p) => p !== '');
    // Parts of one or two letters (LI, WU, an initial) are too easily a token of a poor read: never confirmed.
    return parts.length > 0 && parts.every((p) => p.length >= 3 && zoneWords.has(p));
  };
  const namesSpelt = (['surname', 'givenNames'] as const).filter((f) => spelt(fields[f]));
  const detail = readable ? undefined : `Visual zone not read cleanly (OCR confidence ${Math.round(read.confidence)}); not compared.`;
  return {
    readable,
    ocrConfidence: read.confidence,
    documentNumberFound,
    surnameFound,
    givenNamesFound,
    mismatch,
    nameMismatch,
    nameDisagreement,
    disagreeingNames,
    namesSpelt,
    signals: [
      signal(
        'viz_document_number_match',
        documentNumberFound,
        documentNumberFound,
        detail ? { detail } : { detail: 'MRZ document number found in the printed zone (one OCR slip allowed).' },
      ),
      signal(
        'viz_surname_match',
        surnameFound,
        surnameFound,
        detail ? { detail } : { detail: 'MRZ surname found in the printed zone (one OCR slip per five letters allowed).' },
      ),
      signal(
        'viz_given_names_match',
        givenNamesFound,
        givenNamesFound,
        detail ? { detail } : { detail: 'MRZ given names found in the printed zone (one OCR slip per five letters allowed).' },
      ),
      signal('viz_names_spelt_as_mrz', namesSpelt.join(',') || null, namesSpelt.length > 0 ? true : null, {
        detail: namesSpelt.length
          ? `The printed zone holds ${namesSpelt.join(' and ')} word for word as the MRZ spells them: a second reading that confirms them.`
          : 'No MRZ name found word for word in the printed zone.',
      }),
      signal(
        'viz_name_spelling_agrees',
        readable && (surnameFound || givenNamesFound) ? !nameDisagreement : null,
        readable && (surnameFound || givenNamesFound) ? !nameDisagreement : null,
        {
          detail: nameDisagreement
            ? `The printed zone spells ${disagreeingNames.join(' and ')} differently from the MRZ (found only approximately): neither spelling is trusted.`
            : 'The names found in the printed zone are spelt exactly as in the MRZ.',
        },
      ),
    ],
  };
}

/**
 * A name the MRZ readings disputed (`low`: no check digit settles it) that the printed zone spells word for word is
 * read twice alike, in two fonts by two engines: `medium`, no longer a reason for review. Nothing else changes.
 */
export function withVisualZoneNames(fieldConfidence: FieldConfidence[], viz: VizComparison | null): FieldConfidence[] {
  const spelt = new Set<string>(viz?.namesSpelt ?? []);
  return fieldConfidence.map((f) => (f.level === 'low' && spelt.has(f.field) ? { ...f, level: 'medium' } : f));
}

function normalise(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** Whether `needle` occurs letter for letter in `hay` (spaces ignored). */
export function containsExact(hay: string, needle: string): boolean {
  const n = needle.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return n.length > 0 && hay.replace(/ /g, '').includes(n);
}

/** Whether `needle` occurs in `hay` (spaces ignored) with at most one edit per five characters. */
export function containsFuzzy(hay: string, needle: string): boolean {
  const h = hay.replace(/ /g, '');
  const n = needle.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (n.length === 0) return false;
  if (h.includes(n)) return true;
  const budget = Math.max(1, Math.floor(n.length / 5));
  // Approximate substring match (Sellers): edit distance of `n` against any substring of `h`.
  let prev = new Array<number>(h.length + 1).fill(0);
  for (let i = 1; i <= n.length; i++) {
    const cur = new Array<number>(h.length + 1);
    cur[0] = i;
    for (let j = 1; j <= h.length; j++) {
      const cost = n.charAt(i - 1) === h.charAt(j - 1) ? 0 : 1;
      cur[j] = Math.min((prev[j - 1] ?? 0) + cost, (prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1);
    }
    prev = cur;
  }
  return Math.min(...prev) <= budget;
}
