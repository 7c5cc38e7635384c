import { signal, type Signal } from '../signal.js';
import type { ScreeningResult } from './types.js';

/** The screening result as engine signals, for the check record and the evidence bundle. */
export function screeningSignals(r: ScreeningResult): Signal[] {
  const top = r.hits[0];
  const out: Signal[] = [
    signal('screening_decision', r.decision, r.decision === 'no_match', { detail: `${r.hits.length} hit(s) at or above ${r.threshold}` }),
    signal('screening_top_score', top?.score ?? 0, top ? false : true, {
      threshold: r.threshold,
      ...(top ? { detail: `${top.entityId}: ${top.explanation.matched[0] ?? ''}` } : {}),
    }),
    signal('screening_candidates_examined', r.candidatesExamined, null),
  ];
  if (r.suppressed.length)
    out.push(
      signal('screening_allow_listed', r.suppressed.length, null, { detail: `suppressed by allow entries: ${r.suppressed.join(', ')}` }),
    );
  if (r.hits.some((h) => h.blocked))
    out.push(signal('screening_block_listed', true, false, { detail: 'an operator block entry forced a match' }));
  if (r.hits.some((h) => h.explanation.components.identifier === 'match'))
    out.push(signal('screening_identifier_match', true, false, { detail: 'an identifier of the subject is on a list entry' }));
  return out;
}
