import type { Queryable } from '../../platform/db.js';
import type { RequestContext } from '../../platform/context.js';
import { paginate } from '../../platform/pagination.js';
import { iso } from '../../platform/schemas.js';
import type { Delivery, Destination } from './schemas.js';

type Tenant = Pick<RequestContext, 'accountId' | 'environment'>;

export interface DestinationRow {
  id: string;
  account_id: string;
  environment: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  destination_id: string;
  event_id: string;
  event_type: string;
  state: Delivery['state'];
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export function toDestination(r: DestinationRow): Destination {
  return {
    id: r.id,
    object: 'webhook_destination',
    url: r.url,
    event_types: r.event_types,
    description: r.description,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    consecutive_failures: r.consecutive_failures,
    last_success_at: iso(r.last_success_at),
    previous_secret_expires_at: iso(r.previous_secret_expires_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export const destinations = {
  async insert(
    tx: Queryable,
    t: Tenant,
    row: Pick<DestinationRow, 'id' | 'url' | 'description' | 'event_types' | 'enabled' | 'secret_sealed'>,
  ): Promise<DestinationRow> {
    const rows = await tx.query<DestinationRow>(
      `INSERT INTO webhook_destinations (id, account_id, environment, url, description, event_types, enabled, secret_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [row.id, t.accountId, t.environment, row.url, row.description, row.event_types, row.enabled, row.secret_sealed],
    );
    return rows[0]!;
  },
  async get(db: Queryable, t: Tenant, id: string, forUpdate = false): Promise<DestinationRow | null> {
    const rows = await db.query<DestinationRow>(
      `SELECT * FROM webhook_destinations WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
  async update(tx: Queryable, t: Tenant, id: string, fields: Partial<DestinationRow>): Promise<DestinationRow> {
    const keys = Object.keys(fields) as (keyof DestinationRow)[];
    const sets = keys.map((k, i) => `${k} = $${i + 4}`);
    const rows = await tx.query<DestinationRow>(
      `UPDATE webhook_destinations SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE account_id = $1 AND environment = $2 AND id = $3 AND deleted_at IS NULL RETURNING *`,
      [t.accountId, t.environment, id, ...keys.map((k) => fields[k])],
    );
    return rows[0]!;
  },
  async page(db: Queryable, t: Tenant, q: { limit?: number; cursor?: string }) {
    return paginate<DestinationRow & Record<string, unknown>>(db, t, {
      from: 'webhook_destinations',
      where: ['deleted_at IS NULL'],
      limit: q.limit,
      cursor: q.cursor,
      name: 'webhooks',
    });
  },
};

const DELIVERY_COLUMNS = `d.id, d.destination_id, d.event_id, e.type AS event_type, d.state, d.attempts, d.next_attempt_at, d.last_status,
  d.last_error, d.redelivery_of, d.created_at, d.completed_at, d.account_id, d.environment`;
const DELIVERY_FROM = '(SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN events e ON e.id = d.event_id) d';

export const deliveries = {
  async get(db: Queryable, t: Tenant, id: string): Promise<DeliveryRow | null> {
    const rows = await db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.account_id = $1 AND d.environment = $2 AND d.id = $3`,
      [t.accountId, t.environment, id],
    );
    return rows[0] ?? null;
  },
  async page(db: Queryable, t: Tenant, q: { limit?: number; cursor?: string; destination_id?: string; event_id?: string; state?: string }) {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [col, val] of [
      ['destination_id', q.destination_id],
      ['event_id', q.event_id],
      ['state', q.state],
    ] as const) {
      if (val) {
        params.push(val);
        where.push(`${col} = $${params.length + 2}`);
      }
    }
    return paginate<DeliveryRow & Record<string, unknown>>(db, t, {
      from: DELIVERY_FROM,
      where,
      params,
      limit: q.limit,
      cursor: q.cursor,
      name: 'webhook_deliveries',
    });
  },
  async attemptsFor(db: Queryable, ids: string[]) {
    if (ids.length === 0) return new Map<string, Delivery['attempt_log']>();
    const rows = await db.query<{
      delivery_id: string;
      attempt: number;
      started_at: Date;
      duration_ms: number;
      status_code: number | null;
      error: string | null;
      response_excerpt: string | null;
    }>('SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt', [ids]);
    const out = new Map<string, Delivery['attempt_log']>();
    for (const r of rows) {
      const list = out.get(r.delivery_id) ?? [];
      list.push({
        attempt: r.attempt,
        started_at: iso(r.started_at)!,
        duration_ms: r.duration_ms,
        status_code: r.status_code,
        error: r.error,
        response_excerpt: r.response_excerpt,
      });
      out.set(r.delivery_id, list);
    }
    return out;
  },
};

export function toDelivery(r: DeliveryRow, attempts: Delivery['attempt_log']): Delivery {
  return {
    id: r.id,
    object: 'webhook_delivery',
    destination_id: r.destination_id,
    event_id: r.event_id,
    event_type: r.event_type,
    state: r.state,
    attempts: r.attempts,
    next_attempt_at: r.state === 'pending' || r.state === 'delivering' ? iso(r.next_attempt_at) : null,
    last_status: r.last_status,
    last_error: r.last_error,
    redelivery_of: r.redelivery_of,
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
    attempt_log: attempts,
  };
}
