/**
 * One engine per tenant, opened on first use and kept open: every engine is bound to its
 * tenant, so a request can only reach the memories of the tenant its token names. All of them
 * share one database file (SQLite in WAL mode serves the connections side by side).
 */
import type { Engram } from '../../index.js';

/** Opens the engine of one tenant. */
export type OpenTenantEngine = (tenant: string) => Promise<Engram>;

export class TenantEngines {
  private readonly open: OpenTenantEngine;
  private readonly engines = new Map<string, Promise<Engram>>();
  private closed = false;

  constructor(open: OpenTenantEngine) {
    this.open = open;
  }

  /** The engine of `tenant`, opening it the first time. A failed open is retried next time. */
  get(tenant: string): Promise<Engram> {
    let engine = this.engines.get(tenant);
    if (!engine) {
      engine = this.open(tenant);
      this.engines.set(tenant, engine);
      engine.catch(() => this.engines.delete(tenant));
    }
    return engine;
  }

  /** Closes every engine (and so the database). Safe to call twice. */
  async closeAll(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opened = await Promise.allSettled(this.engines.values());
    this.engines.clear();
    for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
  }
}
