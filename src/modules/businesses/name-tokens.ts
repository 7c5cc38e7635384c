import { prepareName } from '../../engines/screening/normalize.js';
import type { EntityRecord } from '../../providers/registries/index.js';

/** The words a name is found by: the screening engine's normalised words, legal forms left out. */
export function nameTokens(names: string[]): string[] {
  const out = new Set<string>();
  for (const n of names)
    for (const t of prepareName(n, 'organization', false).tokens) if (t.kind !== 'legal' && t.text.length > 0) out.add(t.text);
  return [...out];
}

export const entityTokens = (e: EntityRecord): string[] => nameTokens([e.name, ...e.otherNames]);
