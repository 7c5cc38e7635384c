import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { invalid } from '../../platform/errors.js';
import { compileJourneyRules } from '../../engines/rules/index.js';
import { JOURNEY_CHECK_TYPES, journeySettingsOf, statusesOf, type JourneyCheckType } from '../checks/index.js';
import { SCREENING_STATUSES, VERIFYING_STATUSES, type OutcomeStatus } from '../checks/index.js';

const CheckTypeLiteral = Type.Union(JOURNEY_CHECK_TYPES.map((t) => Type.Literal(t)));
const StatusLiteral = Type.Union([...VERIFYING_STATUSES, ...SCREENING_STATUSES].map((s) => Type.Literal(s)));
const Band = Type.Union([Type.Literal('medium'), Type.Literal('high')]);
const Condition = Type.Object(
  { check: CheckTypeLiteral, statuses: Type.Array(StatusLiteral, { minItems: 1, uniqueItems: true }) },
  { additionalProperties: false },
);

export const JourneyDefinition = Type.Object(
  {
    checks: Type.Array(
      Type.Object(
        {
          type: CheckTypeLiteral,
          settings: Type.Optional(
            Type.Record(Type.String(), Type.Unknown(), { description: 'Per-type settings; see the journey documentation.' }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10, description: 'The checks in the order the subject meets them; each type at most once.' },
    ),
    decision_rules: Type.Object(
      {
        decline: Type.Array(Condition, { maxItems: 30, description: 'A check ending in one of these statuses declines the session.' }),
        refer: Type.Array(Condition, {
          maxItems: 30,
          description: 'A check ending in one of these statuses refers the session to review (unless a decline rule fired).',
        }),
        decline_at_band: Type.Union([Band, Type.Null()], { description: 'A risk band at or above this declines; null: never.' }),
        refer_at_band: Type.Union([Band, Type.Null()], { description: 'A risk band at or above this refers; null: never.' }),
      },
      { additionalProperties: false },
    ),
    risk_scoring: Type.Object(
      {
        signals: Type.Array(
          Type.Object(
            { check: CheckTypeLiteral, status: StatusLiteral, points: Type.Integer({ minimum: 0, maximum: 100 }) },
            { additionalProperties: false },
          ),
          { maxItems: 50, description: 'Points added to risk.score when a check ends in that status; the sum is capped at 100.' },
        ),
        medium_from: Type.Integer({ minimum: 1, maximum: 100, description: 'risk.band is medium from this score.' }),
        high_from: Type.Integer({ minimum: 1, maximum: 100, description: 'risk.band is high from this score (above medium_from).' }),
      },
      { additionalProperties: false },
    ),
    session_lifetime_seconds: Type.Integer({
      minimum: 300,
      maximum: 7 * 86_400,
      description: 'How long a session waits for the subject (5 minutes to 7 days).',
    }),
    rules: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String({
              minLength: 1,
              maxLength: 48,
              pattern: '^[a-z][a-z0-9_]*$',
              description: 'Unique in the journey; the reason code is journey_rule_<key>.',
            }),
            expression: Type.String({
              minLength: 1,
              maxLength: 4000,
              description:
                'A CEL expression (the language of GET /v1/rules) returning bool, over checks.<check type> (the final status, "" when the journey has no such check); results.<check type>.status / score (double) / scored / reasons (list); risk.score (int), risk.band (low|medium|high); subject.type / reference / country; document.read / type / issuing_country / nationality / age (int, at the decision) / age_known / expiry_date / days_to_expiry / expired (the fields the document check read); declared.name_given / birth_date_given / age / country (what the session was created with); capture.ip_country (always "": no IP-to-country data yet). Unknown text is "", unknown numbers 0: guard with document.read, document.age_known, results.<type>.scored.',
            }),
            outcome: Type.Union([Type.Literal('refer'), Type.Literal('decline')], { description: 'What a match does to the decision.' }),
            description: Type.Optional(Type.String({ maxLength: 500 })),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 50,
          description:
            'Journey rules evaluated at the decision after the status and band rules: a match refers or declines with reason journey_rule_<key>; a rule that errors refers with reason journey_rule_<key>_error (never approves). Expressions are compiled when the journey is saved.',
        },
      ),
    ),
    enrol_on_approval: Type.Optional(
      Type.Object(
        {
          face_search: Type.Optional(
            Type.Boolean({
              description:
                "Enrol the approved subject's selfie for face search (POST /v1/checks/face-search finds them; a second identity with the same face is a fraud signal).",
            }),
          ),
          monitoring: Type.Optional(
            Type.Boolean({
              description:
                "Enrol the approved subject (name and date of birth read from the document, or declared) for ongoing sanctions/PEP monitoring with this journey's screening data sets.",
            }),
          ),
        },
        { additionalProperties: false, description: "What an approved session enrols (by the reviewer's approval too). Default: nothing." },
      ),
    ),
  },
  { additionalProperties: false, title: 'JourneyDefinition' },
);
export type JourneyDefinition = Static<typeof JourneyDefinition>;

/**
 * Checks what the schema cannot: settings per type, each type once, rules and signals naming
 * checks of this journey with statuses those checks can have, ordered bands. Throws 400 naming
 * the field as a dotted path under `definition`.
 */
export function validateDefinition(def: JourneyDefinition, base = 'definition'): JourneyDefinition {
  const types = new Set<string>();
  const checks = def.checks.map((c, i) => {
    const at = `${base}.checks[${i}]`;
    if (types.has(c.type)) throw invalid(`${at}.type`, `The journey already has a ${c.type} check; each type runs at most once.`);
    types.add(c.type);
    const schema = journeySettingsOf(c.type);
    const settings = c.settings ?? {};
    const err = Value.Errors(schema, settings).First();
    if (err)
      throw invalid(`${at}.settings${err.path.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`, `${c.type} settings: ${err.message}.`);
    return { type: c.type, settings: Value.Default(schema, structuredClone(settings)) as Record<string, unknown> };
  });
  const known = (check: JourneyCheckType, status: string, at: string) => {
    if (!types.has(check)) throw invalid(`${at}.check`, `The journey has no ${check} check.`);
    if (check === 'risk_score')
      throw invalid(`${at}.check`, 'risk_score is decided by the risk bands (decline_at_band, refer_at_band), not by status rules.');
    if (!statusesOf(check).includes(status as OutcomeStatus))
      throw invalid(`${at}.status`, `A ${check} check ends in one of: ${statusesOf(check).join(', ')}.`);
  };
  for (const kind of ['decline', 'refer'] as const) {
    def.decision_rules[kind].forEach((r, i) =>
      r.statuses.forEach((s, j) => {
        const at = `${base}.decision_rules.${kind}[${i}]`;
        try {
          known(r.check, s, at);
        } catch (e) {
          throw (e as { field?: string }).field?.endsWith('.status') ? invalid(`${at}.statuses[${j}]`, (e as Error).message) : e;
        }
      }),
    );
  }
  def.risk_scoring.signals.forEach((s, i) => known(s.check, s.status, `${base}.risk_scoring.signals[${i}]`));
  if (def.risk_scoring.high_from <= def.risk_scoring.medium_from)
    throw invalid(`${base}.risk_scoring.high_from`, 'high_from must be above medium_from.');
  const keys = new Set<string>();
  (def.rules ?? []).forEach((r, i) => {
    if (keys.has(r.key)) throw invalid(`${base}.rules[${i}].key`, `Another journey rule already has the key ${r.key}.`);
    keys.add(r.key);
  });
  const compiled = compileJourneyRules(JOURNEY_CHECK_TYPES, def.rules ?? [], `${base}.rules`);
  if (!compiled.ok) {
    const e = compiled.errors[0]!;
    const at = e.position ? ` (line ${e.position.line}, column ${e.position.column}, offset ${e.position.offset})` : '';
    throw invalid(e.field, `${e.code}: ${e.message}${at}`);
  }
  return { ...def, checks };
}
