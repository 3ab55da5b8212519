/**
 * The read layer: what recall reads is kept across decisions, over any Store, SQLite and
 * PostgreSQL alike. `withKeptReads(store)` is the store with the layer (the facade wraps whichever
 * store it opens); `readView(store)` is the view one decision or one lone search reads through
 * (read-view.ts). A view reads the store's change mark once, at its first read of a tenant, and
 * answers every read of the decision from the tenant's set kept under that mark
 * (kept-under-mark.ts), replaced whole when the mark moves. The mark is the layer's only signal,
 * except for the retrieval stamps, which it leaves out: the layer drops the memories its own
 * `recordRetrieval` and `recordActivation` stamp, and keeps memories across views only on a store
 * whose mark another process's stamps move (`MemoryReader.markCoversStamps`).
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { ActivationRecord } from '../activation-log.js';
import type { Store } from '../store.js';
import { KeptUnderMark } from './kept-under-mark.js';
import { VIEW, viewOf, type ViewReads } from './read-view.js';

/** Marks a store with the layer, and holds it. */
const LAYER = Symbol('kept reads');

/** What the layer keeps of one store. */
class KeptReads {
  private readonly byTenant = new Map<string, KeptUnderMark>();

  constructor(private readonly store: Store) {}

  /** A view for one decision: the mark read once per tenant, at the first read. */
  view(): Store {
    const marks = new Map<string, Promise<KeptUnderMark>>();
    return viewOf(this.store, (tenant) => {
      let kept = marks.get(tenant);
      if (kept === undefined) marks.set(tenant, (kept = this.keptFor(tenant)));
      return kept;
    });
  }

  /** The memories whose retrieval stamps this store just wrote are read again. */
  stamped(tenant: string, ids: readonly string[]): void {
    this.byTenant.get(tenant)?.memories?.drop(ids);
  }

  /** The tenant's set under the store's mark now: the one kept, or a new one when the mark moved. */
  private async keptFor(tenant: string): Promise<KeptUnderMark> {
    const mark = await this.store.memoryChangeMark(tenant);
    let kept = this.byTenant.get(tenant);
    if (kept?.mark !== mark) {
      kept = new KeptUnderMark(mark, this.store.markCoversStamps === true);
      this.byTenant.set(tenant, kept);
    }
    return kept;
  }
}

/** `store` with the read layer; a store that has it already is returned as it is. */
export function withKeptReads<S extends Store>(store: S): S {
  if ((store as { [LAYER]?: KeptReads })[LAYER] !== undefined) return store;
  const layer = new KeptReads(store);
  const writes: Record<PropertyKey, unknown> = {
    [LAYER]: layer,
    async recordRetrieval(tenant: string, ids: readonly string[], at: string): Promise<void> {
      await store.recordRetrieval(tenant, ids, at);
      layer.stamped(tenant, ids);
    },
    async recordActivation(record: ActivationRecord): Promise<void> {
      await store.recordActivation(record);
      layer.stamped(record.receipt.tenant, record.retrieved);
    },
  };
  return new Proxy(store, {
    get(target, property) {
      if (Object.hasOwn(writes, property)) return writes[property];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The view a decision or a lone search reads through: the view itself when `store` is one (a
 * decision's searches share its), a view of the layer when `store` has it, else a view that
 * reads each memory and its mentions once and keeps nothing beyond itself.
 */
export function readView<S extends ViewReads>(store: S): S {
  if ((store as { [VIEW]?: true })[VIEW]) return store;
  const layer = (store as { [LAYER]?: KeptReads })[LAYER];
  return layer !== undefined ? (layer.view() as unknown as S) : viewOf(store, null);
}
