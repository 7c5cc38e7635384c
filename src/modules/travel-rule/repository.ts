import { createHash } from 'node:crypto';
import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import type { Sealer } from '../../platform/crypto.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import { allowedActions, type Direction, type MessageState } from '../../engines/travel-rule/index.js';
import type { CounterpartiesQuery, Counterparty, MessagesQuery, TravelRuleMessage } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;
const IVMS_PURPOSE = 'travel-rule-ivms101';
const TOKEN_PURPOSE = 'travel-rule-callback';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface MessageRow {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'production';
  direction: Direction;
  status: MessageState;
  protocol: 'trp' | 'email' | 'manual';
  counterparty_id: string | null;
  request_identifier: string;
  travel_address: string | null;
  endpoint_url: string | null;
  peer_callback_url: string | null;
  callback_token_sealed: string | null;
  callback_token_hash: string | null;
  asset: TravelRuleMessage['asset'];
  amount: string;
  amount_fiat: TravelRuleMessage['amount_fiat'];
  threshold_applied: TravelRuleMessage['threshold_applied'];
  ivms101_sealed: string;
  originator_name: string | null;
  beneficiary_name: string | null;
  destination_address: string | null;
  tx_hash: string | null;
  rejection: TravelRuleMessage['rejection'];
  screening: TravelRuleMessage['screening'];
  warnings: string[];
  delivery: TravelRuleMessage['delivery'];
  reference: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface TransitionRow {
  from_state: string | null;
  to_state: string;
  action: string;
  actor: string;
  note: string | null;
  at: Date;
}

export const sealIvms = (sealer: Sealer, v: unknown) => sealer.seal(IVMS_PURPOSE, JSON.stringify(v));
export const openIvms = (sealer: Sealer, row: MessageRow) =>
  JSON.parse(sealer.open(IVMS_PURPOSE, row.ivms101_sealed)) as Record<string, unknown>;
export const sealToken = (sealer: Sealer, token: string) => sealer.seal(TOKEN_PURPOSE, token);
export const openToken = (sealer: Sealer, row: MessageRow) =>
  row.callback_token_sealed ? sealer.open(TOKEN_PURPOSE, row.callback_token_sealed) : null;

export function toMessage(r: MessageRow, sealer: Sealer, trail?: TransitionRow[]): TravelRuleMessage {
  return {
    id: r.id,
    object: 'travel_rule_message',
    direction: r.direction,
    status: r.status,
    protocol: r.protocol,
    counterparty_id: r.counterparty_id,
    request_identifier: r.request_identifier,
    travel_address: r.travel_address,
    asset: r.asset,
    amount: r.amount,
    amount_fiat: r.amount_fiat,
    threshold_applied: r.threshold_applied,
    ivms101: openIvms(sealer, r),
    originator_name: r.originator_name,
    beneficiary_name: r.beneficiary_name,
    destination_address: r.destination_address,
    tx_hash: r.tx_hash,
    rejection: r.rejection,
    screening: r.screening,
    warnings: r.warnings ?? [],
    delivery: r.delivery,
    reference: r.reference,
    allowed_actions: allowedActions(r.direction, r.status),
    ...(trail
      ? {
          transitions: trail.map((t) => ({
            from: t.from_state,
            to: t.to_state,
            action: t.action,
            actor: t.actor,
            note: t.note,
            at: iso(t.at)!,
          })),
        }
      : {}),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

const INSERT_COLUMNS = [
  'id',
  'direction',
  'status',
  'protocol',
  'counterparty_id',
  'request_identifier',
  'travel_address',
  'endpoint_url',
  'peer_callback_url',
  'callback_token_sealed',
  'callback_token_hash',
  'asset',
  'amount',
  'amount_fiat',
  'threshold_applied',
  'ivms101_sealed',
  'originator_name',
  'beneficiary_name',
  'destination_address',
  'warnings',
  'reference',
] as const;
export type NewMessage = Pick<MessageRow, (typeof INSERT_COLUMNS)[number]>;
const JSON_COLUMNS = new Set(['asset', 'amount_fiat', 'threshold_applied', 'warnings', 'rejection', 'screening', 'delivery']);
const val = (k: string, v: unknown) => (JSON_COLUMNS.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : (v ?? null));

/** Columns a transition may change besides the status. */
export type MessagePatch = Partial<
  Pick<
    MessageRow,
    | 'ivms101_sealed'
    | 'originator_name'
    | 'beneficiary_name'
    | 'destination_address'
    | 'tx_hash'
    | 'rejection'
    | 'peer_callback_url'
    | 'callback_token_sealed'
    | 'callback_token_hash'
    | 'delivery'
    | 'warnings'
  >
>;

export const messageRows = {
  async insert(tx: Queryable, t: Tenant, m: NewMessage): Promise<MessageRow> {
    const cols = ['account_id', 'environment', ...INSERT_COLUMNS];
    const params = [t.accountId, t.environment, ...INSERT_COLUMNS.map((k) => val(k, m[k]))];
    const rows = await tx.query<MessageRow>(
      `INSERT INTO travel_rule_messages (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
      params,
    );
    return rows[0]!;
  },

  async get(db: Queryable, t: Tenant, id: string, lock = false): Promise<MessageRow | null> {
    const rows = await db.query<MessageRow>(
      `SELECT * FROM travel_rule_messages WHERE account_id = $1 AND environment = $2 AND id = $3${lock ? ' FOR UPDATE' : ''}`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },

  async byRequest(db: Queryable, t: Tenant, direction: Direction, requestIdentifier: string, lock = false): Promise<MessageRow | null> {
    const rows = await db.query<MessageRow>(
      `SELECT * FROM travel_rule_messages WHERE account_id = $1 AND environment = $2 AND direction = $3 AND request_identifier = $4${lock ? ' FOR UPDATE' : ''}`,
      [t.accountId, t.environment, direction, requestIdentifier],
    );
    return rows[0] ?? null;
  },

  /** The message a TRP callback capability belongs to (any tenant: the token is the credential). */
  async byCallbackToken(db: Queryable, token: string): Promise<MessageRow | null> {
    const rows = await db.query<MessageRow>('SELECT * FROM travel_rule_messages WHERE callback_token_hash = $1', [sha256(token)]);
    return rows[0] ?? null;
  },

  /** The only way the status changes: from the status the caller read, with one trail row. */
  async applyTransition(
    tx: Queryable,
    ctx: RequestContext,
    id: string,
    from: MessageState,
    to: MessageState,
    action: string,
    patch: MessagePatch,
    note: string | null,
  ): Promise<MessageRow | null> {
    const keys = Object.keys(patch) as (keyof MessagePatch)[];
    const sets = keys.map((k, i) => `${k} = $${i + 6}${JSON_COLUMNS.has(k) ? '::jsonb' : ''}`);
    const rows = await tx.query<MessageRow>(
      `UPDATE travel_rule_messages SET status = $4, updated_at = now()${sets.length ? ', ' + sets.join(', ') : ''}
       WHERE account_id = $1 AND environment = $2 AND id = $3 AND status = $5 RETURNING *`,
      [ctx.accountId, ctx.environment, id, to, from, ...keys.map((k) => val(k, patch[k]))],
    );
    if (rows.length === 0) return null;
    await this.trail(tx, ctx, id, from, to, action, note);
    return rows[0]!;
  },

  async trail(
    tx: Queryable,
    ctx: RequestContext,
    id: string,
    from: string | null,
    to: string,
    action: string,
    note: string | null,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO travel_rule_transitions (message_id, account_id, environment, from_state, to_state, action, actor, note, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, ctx.accountId, ctx.environment, from, to, action, `${ctx.actor.type}:${ctx.actor.id}`, note, ctx.requestId],
    );
  },

  /** Fields outside the lifecycle (screening result, delivery progress): never the status. */
  async setAside(
    db: Queryable,
    t: Tenant,
    id: string,
    patch: Pick<MessagePatch, 'delivery'> & { screening?: MessageRow['screening'] },
  ): Promise<void> {
    const keys = Object.keys(patch) as ('delivery' | 'screening')[];
    if (keys.length === 0) return;
    await db.query(
      `UPDATE travel_rule_messages SET ${keys.map((k, i) => `${k} = $${i + 4}::jsonb`).join(', ')}, updated_at = now()
       WHERE account_id = $1 AND environment = $2 AND id = $3`,
      [t.accountId, t.environment, id, ...keys.map((k) => val(k, patch[k]))],
    );
  },

  async transitionsOf(db: Queryable, t: Tenant, id: string): Promise<TransitionRow[]> {
    return db.query<TransitionRow>(
      `SELECT from_state, to_state, action, actor, note, at FROM travel_rule_transitions
       WHERE account_id = $1 AND environment = $2 AND message_id = $3 ORDER BY id`,
      [t.accountId, t.environment, id],
    );
  },

  page(db: Queryable, t: Tenant, q: MessagesQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length + 2}`));
    };
    if (q.status) add('status = ?', q.status);
    if (q.direction) add('direction = ?', q.direction);
    if (q.counterparty_id) add('counterparty_id = ?', q.counterparty_id);
    if (q.request_identifier) add('request_identifier = ?', q.request_identifier);
    return paginate<MessageRow & Record<string, unknown>>(db, t, {
      from: 'travel_rule_messages',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'travel_rule_messages',
    });
  },
};

export interface CounterpartyRow {
  id: string;
  name: string;
  legal_name: string;
  lei: string | null;
  country: string | null;
  website: string | null;
  domains: string[];
  travel_addresses: string[];
  protocols: Counterparty['protocols'];
  due_diligence_status: Counterparty['due_diligence']['status'];
  due_diligence_notes: string | null;
  screening: Counterparty['due_diligence']['screening'];
  screened_at: Date | null;
  source: string;
  created_at: Date;
  updated_at: Date;
}

export function toCounterparty(r: CounterpartyRow): Counterparty {
  return {
    id: r.id,
    object: 'counterparty',
    name: r.name,
    legal_name: r.legal_name,
    lei: r.lei,
    country: r.country,
    website: r.website,
    domains: r.domains ?? [],
    travel_addresses: r.travel_addresses ?? [],
    protocols: r.protocols ?? [],
    due_diligence: {
      status: r.due_diligence_status,
      notes: r.due_diligence_notes,
      screening: r.screening,
      screened_at: iso(r.screened_at),
    },
    source: r.source,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export type CounterpartyValues = Omit<CounterpartyRow, 'id' | 'created_at' | 'updated_at' | 'screened_at'> & { screened_at: Date | null };
const CP_COLUMNS = [
  'name',
  'legal_name',
  'lei',
  'country',
  'website',
  'domains',
  'travel_addresses',
  'protocols',
  'due_diligence_status',
  'due_diligence_notes',
  'screening',
  'screened_at',
  'source',
] as const;
const cpVal = (k: string, v: unknown) =>
  k === 'protocols' || k === 'screening'
    ? v === null || v === undefined
      ? k === 'protocols'
        ? '[]'
        : null
      : JSON.stringify(v)
    : (v ?? null);
const cpCast = (k: string) =>
  k === 'protocols' || k === 'screening' ? '::jsonb' : k === 'domains' || k === 'travel_addresses' ? '::text[]' : '';

export const counterpartyRows = {
  async insert(tx: Queryable, t: Tenant, id: string, v: CounterpartyValues): Promise<CounterpartyRow> {
    const cols = ['id', 'account_id', 'environment', ...CP_COLUMNS];
    const rows = await tx.query<CounterpartyRow>(
      `INSERT INTO travel_rule_counterparties (${cols.join(', ')})
       VALUES (${cols.map((c, i) => `$${i + 1}${cpCast(c)}`).join(', ')}) RETURNING *`,
      [id, t.accountId, t.environment, ...CP_COLUMNS.map((k) => cpVal(k, v[k]))],
    );
    return rows[0]!;
  },

  async update(tx: Queryable, t: Tenant, id: string, v: Partial<CounterpartyValues>): Promise<CounterpartyRow | null> {
    const keys = CP_COLUMNS.filter((k) => k in v);
    const rows = await tx.query<CounterpartyRow>(
      `UPDATE travel_rule_counterparties SET ${[...keys.map((k, i) => `${k} = $${i + 4}${cpCast(k)}`), 'updated_at = now()'].join(', ')}
       WHERE account_id = $1 AND environment = $2 AND id = $3 RETURNING *`,
      [t.accountId, t.environment, id, ...keys.map((k) => cpVal(k, v[k]))],
    );
    return rows[0] ?? null;
  },

  async get(db: Queryable, t: Tenant, id: string): Promise<CounterpartyRow | null> {
    const rows = await db.query<CounterpartyRow>(
      'SELECT * FROM travel_rule_counterparties WHERE account_id = $1 AND environment = $2 AND id = $3',
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },

  async byLei(db: Queryable, t: Tenant, lei: string): Promise<CounterpartyRow | null> {
    const rows = await db.query<CounterpartyRow>(
      'SELECT * FROM travel_rule_counterparties WHERE account_id = $1 AND environment = $2 AND lei = $3',
      [t.accountId, t.environment, lei],
    );
    return rows[0] ?? null;
  },

  /** The counterparty whose domains or TRP endpoint host match a URL's host (host or host:port). */
  async byHost(db: Queryable, t: Tenant, url: string): Promise<CounterpartyRow | null> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    const rows = await db.query<CounterpartyRow>(
      `SELECT * FROM travel_rule_counterparties c WHERE account_id = $1 AND environment = $2
         AND ($3 = ANY(domains) OR $4 = ANY(domains)
              OR EXISTS (SELECT 1 FROM jsonb_array_elements(c.protocols) p WHERE p->>'endpoint' LIKE $5 OR p->>'endpoint' LIKE $6))
       ORDER BY id LIMIT 1`,
      [
        t.accountId,
        t.environment,
        u.hostname.toLowerCase(),
        u.host.toLowerCase(),
        `${u.protocol}//${u.host}/%`,
        `${u.protocol}//${u.host}`,
      ],
    );
    return rows[0] ?? null;
  },

  page(db: Queryable, t: Tenant, q: CounterpartiesQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, ...v: unknown[]) => {
      let s = sql;
      for (const x of v) {
        params.push(x);
        s = s.replace('?', `$${params.length + 2}`);
      }
      where.push(s);
    };
    if (q.query) {
      const like = `%${q.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      add('(lower(name) LIKE ? OR lower(legal_name) LIKE ?)', like, like);
    }
    if (q.lei) add('lei = ?', q.lei.toUpperCase());
    if (q.domain) add('? = ANY(domains)', q.domain.toLowerCase());
    if (q.travel_address) add('? = ANY(travel_addresses)', q.travel_address);
    if (q.protocol) add("EXISTS (SELECT 1 FROM jsonb_array_elements(protocols) p WHERE p->>'protocol' = ?)", q.protocol);
    return paginate<CounterpartyRow & Record<string, unknown>>(db, t, {
      from: 'travel_rule_counterparties',
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'travel_rule_counterparties',
    });
  },
};

export interface SettingsRow {
  account_id: string;
  environment: 'sandbox' | 'production';
  inbound_trp_enabled: boolean;
  inbound_secret_hash: string | null;
  inbound_secret_sealed: string | null;
  vasp_name: string | null;
  vasp_lei: string | null;
  /** Level → proceed / hold / reject for the wallet screening of a message's addresses; null: the defaults. */
  address_risk_actions: Partial<Record<'low' | 'medium' | 'high' | 'severe', 'proceed' | 'hold' | 'reject'>> | null;
}
const SECRET_PURPOSE = 'travel-rule-inbound';
export const sealSecret = (sealer: Sealer, s: string) => sealer.seal(SECRET_PURPOSE, s);
export const openSecret = (sealer: Sealer, row: SettingsRow) =>
  row.inbound_secret_sealed ? sealer.open(SECRET_PURPOSE, row.inbound_secret_sealed) : null;

const parseSettings = (r: SettingsRow): SettingsRow =>
  typeof r.address_risk_actions === 'string' ? { ...r, address_risk_actions: JSON.parse(r.address_risk_actions) } : r;

export const settingsRows = {
  async get(db: Queryable, t: Tenant): Promise<SettingsRow | null> {
    const rows = await db.query<SettingsRow>('SELECT * FROM travel_rule_settings WHERE account_id = $1 AND environment = $2', [
      t.accountId,
      t.environment,
    ]);
    return rows[0] ? parseSettings(rows[0]) : null;
  },
  async bySecret(db: Queryable, secret: string): Promise<SettingsRow | null> {
    const rows = await db.query<SettingsRow>('SELECT * FROM travel_rule_settings WHERE inbound_secret_hash = $1', [sha256(secret)]);
    return rows[0] ? parseSettings(rows[0]) : null;
  },
  async upsert(tx: Queryable, t: Tenant, s: Omit<SettingsRow, 'account_id' | 'environment'>): Promise<SettingsRow> {
    const rows = await tx.query<SettingsRow>(
      `INSERT INTO travel_rule_settings (account_id, environment, inbound_trp_enabled, inbound_secret_hash, inbound_secret_sealed, vasp_name, vasp_lei,
         address_risk_actions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
       ON CONFLICT (account_id, environment) DO UPDATE SET inbound_trp_enabled = $3, inbound_secret_hash = $4, inbound_secret_sealed = $5,
         vasp_name = $6, vasp_lei = $7, address_risk_actions = $8::jsonb, updated_at = now()
       RETURNING *`,
      [
        t.accountId,
        t.environment,
        s.inbound_trp_enabled,
        s.inbound_secret_hash,
        s.inbound_secret_sealed,
        s.vasp_name,
        s.vasp_lei,
        s.address_risk_actions ? JSON.stringify(s.address_risk_actions) : null,
      ],
    );
    return parseSettings(rows[0]!);
  },
};
