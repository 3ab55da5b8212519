/**
 * One queue per Agent SDK session: its hook events run one after another, in the order the SDK
 * called them. Claude Code may run the PostToolUse hooks of parallel tool calls at once; each
 * reads and writes the session's record, and two at once would lose a count.
 */

/** Runs tasks in order per key; tasks of different keys run side by side. */
export class SessionQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every task queued before it under `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // The map keeps only sessions with work pending.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
