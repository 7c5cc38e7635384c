import { Type } from '@sinclair/typebox';
import { defineEvent } from '../../platform/event-catalog.js';

export const RULE_EVENTS = [
  defineEvent(
    'ruleset.published',
    'A KYT rule set version was published (maker-checker): transactions are evaluated with it from now on.',
    Type.Object({
      version: Type.Integer(),
      published_by: Type.String(),
      authors: Type.Array(Type.String()),
      change_note: Type.Union([Type.String(), Type.Null()]),
      active_rules: Type.Array(Type.String(), { description: 'Keys of the active rules.' }),
      test_rules: Type.Array(Type.String(), { description: 'Keys of the rules in shadow (test) mode.' }),
      changes: Type.Object({
        added: Type.Array(Type.Object({ id: Type.String(), key: Type.String() })),
        removed: Type.Array(Type.Object({ id: Type.String(), key: Type.String() })),
        changed: Type.Array(Type.Object({ id: Type.String(), key: Type.String(), fields: Type.Record(Type.String(), Type.Unknown()) })),
      }),
    }),
  ),
];
