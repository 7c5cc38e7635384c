import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import type { ValidationError } from './aggregates.js';
import type { RuleEnvironment } from './context.js';

export interface CompiledExpression {
  source: string;
  run: ParseResult;
  /** Context paths the expression reads, e.g. ["tx.amount", "agg.fan_in_30d"]: what values_used reports. */
  paths: string[];
  /** The same paths split at the dots, for lookups on the hot path. */
  segments: string[][];
  /** Aggregate keys read (the `agg.<key>` paths without the prefix). */
  aggregates: string[];
  /**
   * Paths not read but reported with values_used because they explain what was (EVIDENCE): a rule on
   * counterparty.screening.score also reports counterparty.screening.matches, the list entries behind it.
   */
  evidence: string[];
  evidenceSegments: string[][];
  /**
   * The top-level conjuncts (`a && b && …`) of an expression that reads aggregates which themselves read none,
   * each compiled alone: when one is false the expression is false whatever the aggregates are (CEL's `&&` is
   * commutative: false absorbs an error on either side), so the aggregates need not be computed (`guards.ts`).
   * Empty when the expression reads no aggregate or is not a conjunction.
   */
  guards: ParseResult[];
}

/** A rule reading under the key reports the value too, unless it reads it already. */
export const EVIDENCE: Record<string, string> = { 'counterparty.screening': 'counterparty.screening.matches' };

function evidenceFor(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const [under, also] of Object.entries(EVIDENCE)) {
    const reads = paths.some((p) => p === under || p.startsWith(`${under}.`) || under.startsWith(`${p}.`));
    if (reads && !paths.includes(also)) out.push(also);
  }
  return out;
}

export type CompileResult = { ok: true; expression: CompiledExpression } | { ok: false; errors: ValidationError[] };

export function position(source: string, offset: number, end = offset): NonNullable<ValidationError['position']> {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { offset, end, line, column };
}

function children(n: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (a: unknown) => {
    if (Array.isArray(a)) a.forEach(visit);
    else if (a && typeof a === 'object' && 'op' in a) out.push(a as ASTNode);
  };
  visit(n.args);
  return out;
}

/** The dotted path of a member chain rooted at a context variable, or null. */
function chainPath(n: ASTNode, roots: ReadonlySet<string>): string[] | null {
  if (n.op === 'id') return roots.has(n.args) ? [n.args] : null;
  if (n.op === '.') {
    const base = chainPath(n.args[0], roots);
    return base ? [...base, n.args[1]] : null;
  }
  return null;
}

/** Walks the AST: collects read paths and flags agg references that are not declared aggregates. */
function inspect(ast: ASTNode, declared: ReadonlySet<string>, roots: ReadonlySet<string>, source: string, field: string) {
  const paths = new Set<string>();
  const errors: ValidationError[] = [];
  const walk = (n: ASTNode, parentIsSelect: boolean) => {
    const p = n.op === '.' || n.op === 'id' ? chainPath(n, roots) : null;
    if (p && !parentIsSelect) {
      if (p[0] === 'agg') {
        if (p.length < 2) {
          errors.push({
            field,
            code: 'invalid_aggregate_reference',
            message: 'agg must be followed by .<aggregate key>',
            position: position(source, n.start, n.end),
          });
        } else if (!declared.has(p[1]!)) {
          errors.push({
            field,
            code: 'undeclared_aggregate',
            message: `aggregate '${p[1]}' is not declared in this rule set`,
            position: position(source, n.start, n.end),
          });
        }
      }
      paths.add(p[0] === 'agg' ? p.slice(0, 2).join('.') : p.join('.'));
    }
    for (const c of children(n)) walk(c, n.op === '.' && p !== null);
  };
  walk(ast, false);
  return { paths: [...paths], errors };
}

/** Parses, checks aggregate references, then type-checks against the declared context; the result must be bool. */
export function compileExpression(re: RuleEnvironment, source: string, field = 'expression'): CompileResult {
  if (typeof source !== 'string' || source.trim() === '') {
    return { ok: false, errors: [{ field, code: 'empty_expression', message: 'expression is empty' }] };
  }
  let run: ParseResult;
  try {
    run = re.env.parse(source);
  } catch (e) {
    return { ok: false, errors: [celError(e, source, field, 'syntax_error')] };
  }
  const declared = new Set(re.aggregates.map((a) => a.key));
  const { paths, errors } = inspect(run.ast, declared, re.roots, source, field);
  if (errors.length) return { ok: false, errors };
  const checked = run.check();
  if (!checked.valid) return { ok: false, errors: [celError(checked.error, source, field, 'type_error')] };
  if (checked.type !== 'bool') {
    return {
      ok: false,
      errors: [
        {
          field,
          code: 'not_boolean',
          message: `expression must be bool, it is ${checked.type}`,
          position: position(source, 0, source.length),
        },
      ],
    };
  }
  const aggregates = paths.filter((p) => p.startsWith('agg.')).map((p) => p.slice(4));
  const evidence = evidenceFor(paths);
  const guards = aggregates.length ? guardsOf(re, run.ast, source, declared) : [];
  return {
    ok: true,
    expression: {
      source,
      run,
      paths,
      segments: paths.map((p) => p.split('.')),
      aggregates,
      evidence,
      evidenceSegments: evidence.map((p) => p.split('.')),
      guards,
    },
  };
}

/** The operands of a chain of `&&` at the top of the expression, left to right. */
function conjuncts(n: ASTNode): ASTNode[] {
  return n.op === '&&' ? [...conjuncts(n.args[0]), ...conjuncts(n.args[1])] : [n];
}

/**
 * Whether two parses are the same expression: the same operators over the same operands (positions aside). A node's
 * source range does not always cover it whole (`!(a)` spans `!(a`), so a conjunct's text is trusted only when it
 * parses back to the conjunct itself.
 */
function sameTree(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameTree(x, b[i]));
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || !('op' in a) || !('op' in b)) return false;
    const x = a as ASTNode;
    const y = b as ASTNode;
    return x.op === y.op && sameTree(x.args, y.args);
  }
  return a === b;
}

/**
 * The conjuncts of a top-level `&&` chain that read no aggregate, each parsed from its own source text and kept only
 * when that parse is the conjunct itself (sameTree) and type-checks as bool.
 */
function guardsOf(re: RuleEnvironment, ast: ASTNode, source: string, declared: ReadonlySet<string>): ParseResult[] {
  const parts = conjuncts(ast);
  if (parts.length < 2) return [];
  const out: ParseResult[] = [];
  for (const part of parts) {
    const mine = inspect(part, declared, re.roots, source, 'expression');
    if (mine.errors.length || mine.paths.some((p) => p === 'agg' || p.startsWith('agg.'))) continue;
    try {
      // The same tree reads the same paths.
      const alone = re.env.parse(source.slice(part.start, part.end));
      const checked = alone.check();
      if (checked.valid && checked.type === 'bool' && sameTree(alone.ast, part)) out.push(alone);
    } catch {
      // Not a guard: the rule's aggregates are then computed, as without guards.
    }
  }
  return out;
}

function celError(e: unknown, source: string, field: string, fallback: string): ValidationError {
  const err = e as { summary?: string; message?: string; code?: string; range?: { start: number; end: number } };
  const out: ValidationError = {
    field,
    code: err.code ? `${fallback}:${err.code}` : fallback,
    message: err.summary ?? err.message ?? String(e),
  };
  if (err.range) out.position = position(source, err.range.start, err.range.end);
  return out;
}

export type RunResult = { ok: true; value: boolean } | { ok: false; error: { code: string; message: string } };

/** Runs a compiled expression over a CEL context; a throw or a non-bool is an error, never a value. */
export function runExpression(expression: CompiledExpression, cel: Record<string, object>): RunResult {
  try {
    const v: unknown = expression.run(cel);
    if (typeof v !== 'boolean') return { ok: false, error: { code: 'not_boolean', message: `expression returned ${typeof v}, not bool` } };
    return { ok: true, value: v };
  } catch (e) {
    const err = e as { code?: string; summary?: string; message?: string };
    return { ok: false, error: { code: err.code ?? 'evaluation_error', message: err.summary ?? err.message ?? String(e) } };
  }
}
