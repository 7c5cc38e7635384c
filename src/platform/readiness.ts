import { defineResource } from './resources.js';

/**
 * What a component reports to /readyz. `warming` holds readiness back (503); `ready` and `degraded`
 * (it failed to warm but serves, building on first use) do not.
 */
export type ComponentState = 'warming' | 'ready' | 'degraded';

export interface ReadinessReport {
  ready: boolean;
  components: Record<string, ComponentState>;
}

/** One component's handle: it says when it is warm, or that it gave up warming. */
export interface ComponentReadiness {
  ready(): void;
  degraded(): void;
}

/**
 * The process's readiness registry: a component that warms in the background (index builds, model
 * loads) registers itself as `warming` and reports when done, so the server listens at once and the
 * load balancer waits on /readyz instead of the port. The platform knows nothing of what the names mean.
 */
export class Readiness {
  private readonly components = new Map<string, ComponentState>();
  private waiters: Array<() => void> = [];

  /** Registers `name` as warming; a second registration of the same name warms it again. */
  register(name: string): ComponentReadiness {
    this.components.set(name, 'warming');
    const set = (state: ComponentState) => {
      this.components.set(name, state);
      if (this.report().ready) for (const w of this.waiters.splice(0)) w();
    };
    return { ready: () => set('ready'), degraded: () => set('degraded') };
  }

  /** Resolves once nothing is warming (tests and the CLI wait on it as a load balancer polls /readyz). */
  whenReady(): Promise<void> {
    if (this.report().ready) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  report(): ReadinessReport {
    const components = Object.fromEntries([...this.components].sort(([a], [b]) => a.localeCompare(b)));
    return { ready: ![...this.components.values()].includes('warming'), components };
  }
}

/** The process's readiness registry (`resources.get(READINESS)`), read by /readyz. */
export const READINESS = defineResource<Readiness>(
  'readiness',
  () => new Readiness(),
  () => undefined,
);
