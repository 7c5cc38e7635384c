import type { Config } from '../config.js';
import type { Db } from './db.js';

/**
 * A thing a process holds once and shares: an engine's worker pool, a worker thread, a sender, a cache.
 * The module that owns it declares it (`defineResource` beside the code that builds it); the platform
 * knows nothing of what it is, as with events and queues.
 */
export interface Resource<T> {
  readonly name: string;
  /** Builds it on first use; may read the configuration, the database and other resources. */
  readonly start: (resources: Resources) => T;
  readonly close: (value: T) => Promise<void> | void;
}

export function defineResource<T>(
  name: string,
  start: (resources: Resources) => T,
  close: (value: T) => Promise<void> | void,
): Resource<T> {
  return { name, start, close };
}

/**
 * The process's resources: built once by the entry point (runtime.ts, or a test's createTestApp) and
 * handed to buildApp, the job handlers and the worker. Each resource starts on first use (a process that
 * never reads a document loads no OCR model) and is closed once, by whoever built the object.
 */
export interface Resources {
  readonly config: Config;
  readonly db: Db;
  get<T>(resource: Resource<T>): T;
  /** Whether the resource has been started (tests: work that needs no engine starts none). */
  started<T>(resource: Resource<T>): boolean;
  /** Closes every started resource, the last started first; a get() afterwards throws. */
  close(): Promise<void>;
}

export class ResourcesClosedError extends Error {
  override readonly name = 'ResourcesClosedError';
}

export function createResources(config: Config, db: Db): Resources {
  const values = new Map<Resource<unknown>, unknown>();
  let closed: Promise<void> | null = null;
  const resources: Resources = {
    config,
    db,
    get<T>(resource: Resource<T>): T {
      if (values.has(resource as Resource<unknown>)) return values.get(resource as Resource<unknown>) as T;
      if (closed) throw new ResourcesClosedError(`${resource.name}: the process's resources are closed`);
      const value = resource.start(resources);
      values.set(resource as Resource<unknown>, value);
      return value;
    },
    started: (resource) => values.has(resource as Resource<unknown>),
    close() {
      closed ??= (async () => {
        const errors: unknown[] = [];
        for (const [resource, value] of [...values].reverse()) {
          try {
            await resource.close(value);
          } catch (err) {
            errors.push(err);
          }
        }
        values.clear();
        if (errors.length > 0) throw new AggregateError(errors, 'closing resources failed');
      })();
      return closed;
    },
  };
  return resources;
}
