import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

const Ref = Type.Union([Type.String(), Type.Null()]);

export const BUSINESS_EVENTS = [
  defineEvent(
    'business.created',
    'A business record was created from a registry search result or from manual data.',
    Type.Object({
      id: Type.String({ description: 'Business id (biz_…).' }),
      reference: Ref,
      source: Type.String({ description: 'gleif, gb_coh, bods or manual.' }),
      source_ref: Type.String(),
      name: Type.String(),
    }),
  ),
  defineEvent(
    'business.ownership_changed',
    "A registry import changed the ownership graph of a business record (its owners, their interests or the reporting exceptions); the business's UBOs should be reviewed.",
    Type.Object({
      id: Type.String({ description: 'Business id (biz_…).' }),
      reference: Ref,
      source: Type.String(),
      source_ref: Type.String(),
      batch_id: Type.String({ description: 'The registry import batch that changed it.' }),
    }),
  ),
  defineEvent(
    'business.screening_hit',
    'Screening of a business record (at creation, or again after a list update) found a match or potential match for the business, an officer or an owner (after a list update: a hit not seen before); a business_screening alert is raised.',
    Type.Object({
      id: Type.String({ description: 'Business id (biz_…).' }),
      reference: Ref,
      status: Type.String({ description: 'match or potential_match (the worst over the parties).' }),
      parties: Type.Array(Type.Object({ node_id: Type.String(), name: Type.String(), status: Type.String(), score: Type.Number() })),
      ofac_50_percent_rule: Type.String({ description: 'met, possible or not_met, over confirmed matches.' }),
      controlled_by_listed: Type.Boolean(),
      trigger: Type.Union([Type.Literal('created'), Type.Literal('list_update')], {
        description:
          'created: screening at creation; list_update: the re-screen after a sanctions or PEP list snapshot changed found new hits.',
      }),
    }),
  ),
  defineEvent(
    'business.document_classified',
    'A corporate document was attached to a business record and classified (verified, or needs_review with reasons).',
    Type.Object({
      id: Type.String({ description: 'Document id (bdoc_…).' }),
      business_id: Type.String(),
      type: Ref,
      status: Type.String({ description: 'verified or needs_review.' }),
      reasons: Type.Array(Type.String()),
    }),
  ),
];
