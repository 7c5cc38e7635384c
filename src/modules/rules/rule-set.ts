import type { Queryable } from '../../platform/db.js';
import { BoundedMap } from '../../platform/bounded-map.js';
import type { RequestContext } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import { iso } from '../../platform/schemas.js';
import {
  compileRuleSet,
  starterRuleSet,
  type CompiledRuleSet,
  type RuleSet as EngineRuleSet,
  type Rule as EngineRule,
  type ValidationError,
} from '../../engines/rules/index.js';
import { ruleRows, type DraftRow, type VersionRow } from './repository.js';
import type { Rule, RuleDraft, RuleSet } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export const principalOf = (ctx: Pick<RequestContext, 'actor'>) => `${ctx.actor.type}:${ctx.actor.id}`;

export function toRule(r: EngineRule): Rule {
  return {
    id: r.id,
    object: 'rule',
    key: r.key,
    version: r.version,
    name: r.name,
    description: r.description,
    expression: r.expression,
    score: r.score,
    severity: r.severity,
    force_outcome: r.force_outcome ?? null,
    tags: r.typologies ?? [],
    status: r.status,
    author: r.author,
    reviewer: r.reviewed_by ?? null,
  };
}

const EMPTY: EngineRuleSet = { version: 0, thresholds: { review: 30, block_and_review: 60, decline: 100 }, rules: [], aggregates: [] };

export function toRuleSet(
  shown: VersionRow | null,
  current: number | null,
  versions: Awaited<ReturnType<typeof ruleRows.versions>>,
  draft: DraftRow | null,
): RuleSet {
  const doc = shown?.document ?? EMPTY;
  return {
    object: 'rule_set',
    version: shown?.version ?? null,
    current_version: current,
    published_at: iso(shown?.published_at),
    published_by: shown?.published_by ?? null,
    authors: shown?.authors ?? [],
    change_note: shown?.change_note ?? null,
    thresholds: doc.thresholds,
    aggregates: doc.aggregates as RuleSet['aggregates'],
    rules: doc.rules.map(toRule),
    versions: versions.map((v) => ({
      version: v.version,
      published_at: iso(v.published_at)!,
      published_by: v.published_by,
      authors: v.authors,
      change_note: v.change_note,
    })),
    draft: draft
      ? { revision: draft.revision, base_version: draft.base_version, authors: draft.authors, updated_at: iso(draft.updated_at) }
      : null,
  };
}

/**
 * The draft as it stands: the stored one, or (revision 0, not stored) the current published version,
 * or the starter typology library (every rule draft) when nothing was published yet.
 */
export async function effectiveDraft(db: Queryable, t: Tenant, lock = false): Promise<DraftRow> {
  const stored = await ruleRows.draft(db, t, lock);
  if (stored) return stored;
  const current = await ruleRows.current(db, t);
  if (current)
    return {
      base_version: current.version,
      revision: 0,
      document: { ...current.document, change_note: undefined },
      authors: [],
      updated_at: null as unknown as Date,
    };
  const starter = starterRuleSet(1);
  return { base_version: 0, revision: 0, document: { ...starter }, authors: [], updated_at: null as unknown as Date };
}

export function toDraft(d: DraftRow): RuleDraft {
  return {
    object: 'rule_set_draft',
    revision: d.revision,
    base_version: d.base_version,
    authors: d.authors,
    updated_at: iso(d.updated_at),
    change_note: d.document.change_note ?? null,
    thresholds: d.document.thresholds,
    aggregates: d.document.aggregates as RuleDraft['aggregates'],
    rules: d.document.rules.map(toRule),
  };
}

/** " (line 1, column 12)" for an error with a position. */
export function where(e: ValidationError): string {
  return e.position ? ` (line ${e.position.line}, column ${e.position.column}, offset ${e.position.offset})` : '';
}

/**
 * Compiles a rule set about to be stored; the first error becomes a 400 naming its field (for an
 * expression, the position is in the message). `rename` maps an engine field (rules[3].expression)
 * to the request's (expression).
 */
export function compileOrThrow(doc: EngineRuleSet, rename: (field: string) => string = (f) => f): CompiledRuleSet {
  const r = compileRuleSet(doc);
  if (r.ok) return r.compiled;
  const e = r.errors[0]!;
  throw invalid(rename(e.field), `${e.message}${where(e)}${r.errors.length > 1 ? ` (and ${r.errors.length - 1} more problems)` : ''}`);
}

// Published versions never change: their compiled form is cached per (tenant, version).
const cache = new BoundedMap<string, CompiledRuleSet>(200);

/** The rule set activeRuleSet last answered for each tenant in this process (null: none published then). */
const lastActive = new BoundedMap<string, CompiledRuleSet | null>(2_000);

/** The current published rule set, compiled (null when none was published). */
export async function activeRuleSet(db: Queryable, t: Tenant): Promise<CompiledRuleSet | null> {
  const version = await ruleRows.currentVersion(db, t);
  const compiled = version === null ? null : await compiledVersion(db, t, version);
  lastActive.set(`${t.accountId}\u0000${t.environment}`, compiled);
  return compiled;
}

/**
 * A guess at the active rule set without a round trip: what activeRuleSet last answered for the tenant in this
 * process (undefined: never asked). Only for starting reads early; the caller still asks activeRuleSet and uses
 * what it started only when the answer is the same object.
 */
export function lastActiveRuleSet(t: Tenant): CompiledRuleSet | null | undefined {
  return lastActive.get(`${t.accountId}\u0000${t.environment}`);
}

export async function compiledVersion(db: Queryable, t: Tenant, version: number): Promise<CompiledRuleSet | null> {
  const k = `${t.accountId}\u0000${t.environment}\u0000${version}`;
  const hit = cache.get(k);
  if (hit) return hit;
  const row = await ruleRows.version(db, t, version);
  if (!row) return null;
  const r = compileRuleSet({ ...row.document, version });
  if (!r.ok) throw new Error(`published rule set version ${version} does not compile: ${r.errors[0]!.message}`);
  cache.set(k, r.compiled);
  return r.compiled;
}
