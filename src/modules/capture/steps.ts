import type { JourneyDefinition } from '../journeys/index.js';
import { DOCUMENT_TYPES } from '../checks/index.js';
import type { StepKind } from './schemas.js';

export interface Step {
  kind: StepKind;
  required: boolean;
  description: string;
}

const DESCRIPTIONS: Record<StepKind, string> = {
  document_front: 'The front of your identity document (for a passport, the page with your photo).',
  document_back: 'The back of your identity card or driving licence. Needed for ID cards; passports have no back to photograph.',
  selfie: 'A photo of your face, looking straight at the camera.',
  proof_of_address: 'A recent bill or bank statement showing your name and address (PDF or photo).',
  liveness_challenge:
    'A few seconds of video of your face: look straight at the camera, then follow the instructions (turn your head, blink).',
};

/** The journey's liveness check asks for an active challenge (setting `challenge`). */
export function usesChallenge(def: JourneyDefinition): boolean {
  return def.checks.some((c) => c.type === 'liveness' && (c.settings as { challenge?: boolean } | undefined)?.challenge === true);
}

/** What the subject must capture for a journey, in the order its checks meet them. */
export function stepsFor(def: JourneyDefinition): Step[] {
  const kinds: [StepKind, boolean][] = [];
  for (const c of def.checks) {
    if (c.type === 'document') kinds.push(['document_front', true], ['document_back', false]);
    else if (c.type === 'liveness' && usesChallenge(def)) kinds.push(['liveness_challenge', true]);
    else if (c.type === 'liveness' || c.type === 'face_match' || c.type === 'age_estimation') kinds.push(['selfie', true]);
    else if (c.type === 'proof_of_address') kinds.push(['proof_of_address', true]);
  }
  const seen = new Set<StepKind>();
  return kinds
    .filter(([k]) => !seen.has(k) && seen.add(k))
    .map(([kind, required]) => ({ kind, required, description: DESCRIPTIONS[kind] }));
}

export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The journey's document settings: accepted types (all when unset) and countries (alpha-2; null: any). */
export function documentSettings(def: JourneyDefinition): { types: DocumentType[]; countries: string[] | null } {
  const doc = def.checks.find((c) => c.type === 'document');
  if (!doc) return { types: [], countries: null };
  const s = (doc.settings ?? {}) as { accepted_types?: DocumentType[]; accepted_countries?: string[] };
  return { types: s.accepted_types ?? [...DOCUMENT_TYPES], countries: s.accepted_countries ?? null };
}
