import { Type } from '@sinclair/typebox';
import { DATASETS, SCREENING_INDEX, evaluateScreening, screeningInputFor, type SessionScreeningSettings } from '../screening/index.js';
import type { PipelineStep } from '../check-type.js';
import { withoutEngine } from './outcomes.js';

export const screeningSettings = Type.Object(
  {
    datasets: Type.Optional(
      Type.Array(Type.Union(DATASETS.map((d) => Type.Literal(d))), {
        minItems: 1,
        uniqueItems: true,
        description: 'Data sets screened (default: all).',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, default: 0.8, description: 'Minimum score of a reported hit (0 to 1; default 0.8).' }),
    ),
  },
  { additionalProperties: false },
);

/** Screens the name the document step read (or the subject declared); the same request a correction re-runs. */
export const screeningStep: PipelineStep = async (settings, st, res) => {
  const input = screeningInputFor(st.fields, settings as SessionScreeningSettings, st.subject);
  if (!input)
    return withoutEngine(
      'potential_match',
      'screening_no_name',
      'No name was read from the document, so the subject could not be screened; a reviewer must.',
    );
  return evaluateScreening({ ctx: st.ctx, sealer: res.sealer, cache: res.resources.get(SCREENING_INDEX), input });
};
