/**
 * Requests being answered, so shutdown can stop taking new ones and wait for the rest: a
 * write that was accepted is finished before the database closes.
 */
export class InFlight {
  private count = 0;
  private draining = false;
  private idle: (() => void)[] = [];

  /** Whether new requests are refused. */
  get isDraining(): boolean {
    return this.draining;
  }

  /** Requests running now. */
  get running(): number {
    return this.count;
  }

  /** Marks one request started; call the returned function when it is done. */
  begin(): () => void {
    this.count++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.count--;
      if (this.count === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
  }

  /** Refuses new requests from now on; resolves true once none runs, false after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
