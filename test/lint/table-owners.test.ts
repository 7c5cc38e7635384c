import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// One owner per table (issue #12 item 6): SQL that names a table lives in the module that owns it;
// others ask that module through its face. This test reads every SQL string in src/ (not tests, not
// migrations), takes the table after INSERT INTO / UPDATE / DELETE FROM / FROM / JOIN, and fails when a
// table is used outside its owner. Exceptions are listed below, each with its reason.

const root = new URL('../../', import.meta.url).pathname;

/** Every table the migrations create, by owner ('platform' for platform/, else the module's folder). */
const OWNERS: Record<string, readonly string[]> = {
  platform: ['accounts', 'api_keys', 'audit_chain_meta', 'audit_events', 'events', 'idempotency_keys', 'jobs', 'usage_records'],
  businesses: [
    'business_documents',
    'business_list_state',
    'business_person_verifications',
    'businesses',
    'registry_entities',
    'registry_exceptions',
    'registry_import_batches',
    'registry_name_tokens',
    'registry_persons',
    'registry_relationships',
  ],
  cases: ['alerts', 'case_comments', 'case_transitions', 'cases'],
  checks: ['checks', 'contact_sends', 'contact_verifications', 'face_enrollments', 'list_snapshot_entities', 'list_snapshots', 'media'],
  console: ['console_login_failures', 'console_sessions', 'operators'],
  journeys: ['journey_seeds', 'journey_versions', 'journeys'],
  lists: ['list_entries'],
  monitoring: ['monitored_subjects', 'monitoring_alerts'],
  rules: ['rule_set_drafts', 'rule_set_versions', 'rule_snoozes'],
  transactions: ['rule_backtests', 'transaction_daily', 'transactions'],
  'travel-rule': ['travel_rule_counterparties', 'travel_rule_messages', 'travel_rule_settings', 'travel_rule_transitions'],
  verifications: ['session_corrections', 'session_transitions', 'sessions', 'verification_imports'],
  wallets: [
    'wallet_attributions',
    'wallet_chain_cursors',
    'wallet_imports',
    'wallet_list_state',
    'wallet_monitors',
    'wallet_policies',
    'wallet_screenings',
    'wallet_transfers',
  ],
  webhooks: ['webhook_attempts', 'webhook_deliveries', 'webhook_destinations'],
};

interface Exception {
  file: string;
  table: string;
  reason: string;
}

const EXCEPTIONS: readonly Exception[] = [
  {
    file: 'src/modules/verifications/repository.ts',
    table: 'accounts',
    reason: "retention joins each account's retention_days in the one query that picks expired sessions (a join, not a copy)",
  },
  {
    file: 'src/modules/webhooks/repository.ts',
    table: 'events',
    reason: "webhook delivery reads the outbox's rows (platform/outbox.ts writes them); it is the outbox's reader",
  },
];

const ownerOfTable = new Map(Object.entries(OWNERS).flatMap(([owner, tables]) => tables.map((t) => [t, owner] as const)));

/** 'platform' for src/platform/**, the module's folder for src/modules/<m>/**, else the top folder or file. */
function ownerOfFile(file: string): string {
  const parts = file.split('/');
  return parts[1] === 'modules' ? parts[2]! : parts[1]!.replace(/\.ts$/, '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const STRINGS = /`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g;
const TABLE_AFTER = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|JOIN)\s+([a-z_][a-z0-9_]*)/gi;

/** The known tables a piece of source text names in SQL, with the line of each. */
export function tablesIn(source: string): { table: string; line: number }[] {
  const out: { table: string; line: number }[] = [];
  for (const s of source.matchAll(STRINGS)) {
    for (const m of s[0].matchAll(TABLE_AFTER)) {
      const table = m[1]!.toLowerCase();
      if (!ownerOfTable.has(table)) continue; // prose ("from the …"), catalogs, functions, aliases
      out.push({ table, line: source.slice(0, s.index! + m.index!).split('\n').length });
    }
  }
  return out;
}

test('the extractor finds tables in SQL strings and ignores prose and code', () => {
  const src = [
    "const a = 'SELECT * FROM sessions s JOIN checks c ON c.session_id = s.id';",
    'const b = `INSERT INTO cases (id) VALUES ($1)`; // FROM jobs in a comment is not SQL',
    '/** deleted from the list */ const c = "DELETE FROM list_entries WHERE id = $1";',
    "const d = 'UPDATE monitoring_alerts SET state = $1'; const e = 'reads from journeys';",
  ].join('\n');
  assert.deepEqual(
    tablesIn(src).map((x) => `${x.line}:${x.table}`),
    ['1:sessions', '1:checks', '2:cases', '3:list_entries', '4:monitoring_alerts', '4:journeys'],
  );
});

test('every table the migrations create has an owner', () => {
  const created = new Set<string>();
  for (const f of readdirSync(join(root, 'migrations')).filter((n) => n.endsWith('.sql'))) {
    for (const m of readFileSync(join(root, 'migrations', f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/gi))
      created.add(m[1]!.toLowerCase());
  }
  assert.deepEqual(
    [...created].filter((t) => !ownerOfTable.has(t)),
    [],
    'add the table to OWNERS under the module whose repository writes it',
  );
});

test('each table is used in SQL only by the module that owns it (or an exception with its reason)', () => {
  const used = new Set<string>();
  const violations: string[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path);
    const owner = ownerOfFile(file);
    for (const { table, line } of tablesIn(readFileSync(path, 'utf8'))) {
      const tableOwner = ownerOfTable.get(table)!;
      if (tableOwner === owner) continue;
      const exception = EXCEPTIONS.find((e) => e.file === file && e.table === table);
      if (exception) used.add(`${file} ${table}`);
      else violations.push(`${file}:${line} uses ${table}, owned by ${tableOwner}`);
    }
  }
  assert.deepEqual(violations, [], "use the owner's face (its index.ts) instead, or add an exception with a reason");
  const stale = EXCEPTIONS.filter((e) => !used.has(`${e.file} ${e.table}`));
  assert.deepEqual(stale, [], 'these exceptions no longer apply: remove them');
});
