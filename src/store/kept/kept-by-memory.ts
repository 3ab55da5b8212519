/**
 * What a store keeps per memory across reads (../sqlite/kept-memories.ts, kept-mentions.ts):
 * entries by tenant and memory id, all let go when the owner's version moves, and the older half
 * let go when the bound is reached. The version is what the owner's entries depend on — for the
 * memories, SQLite's data_version (another connection's write; the connection's own writes are
 * the owner's to follow); for their mentions, the change mark, which this connection's writes
 * move too.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
export class KeptByMemory<T> {
  private readonly versionNow: () => number | string;
  private readonly max: number;
  /**
   * By tenant, then memory id. Two levels rather than one key joining both: an id looked up is
   * a string whose hash is already known, where a joined key is a new string hashed on each
   * lookup (a search looks up several hundred).
   */
  private readonly kept = new Map<string, Map<string, T>>();
  private size = 0;
  private version: number | string | null = null;

  /** @param version what the entries depend on, read before each use */
  constructor(version: () => number | string, max: number) {
    this.versionNow = version;
    this.max = max;
  }

  /** Lets everything go when the version moved since the last call; call before reading. */
  refresh(): void {
    const version = this.versionNow();
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
  }

  get(tenant: string, id: string): T | undefined {
    return this.kept.get(tenant)?.get(id);
  }

  /** Keeps these entries, letting the oldest go first to stay within the bound. */
  keep(entries: readonly (readonly [tenant: string, id: string, value: T])[]): void {
    if (this.size + entries.length > this.max) {
      let drop = Math.max(this.size >> 1, this.size + entries.length - this.max);
      for (const byId of this.kept.values()) {
        for (const id of byId.keys()) {
          if (drop <= 0) break;
          byId.delete(id);
          this.size -= 1;
          drop -= 1;
        }
      }
    }
    for (const [tenant, id, value] of entries) {
      let byId = this.kept.get(tenant);
      if (byId === undefined) this.kept.set(tenant, (byId = new Map()));
      if (!byId.has(id)) this.size += 1;
      byId.set(id, value);
    }
  }

  /** Lets these memories' entries go. */
  drop(tenant: string, ids: readonly string[]): void {
    const byId = this.kept.get(tenant);
    if (byId === undefined) return;
    for (const id of ids) if (byId.delete(id)) this.size -= 1;
  }

  /** Lets every entry go. */
  clear(): void {
    this.kept.clear();
    this.size = 0;
  }
}
