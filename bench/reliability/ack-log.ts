/** The acknowledgement logs the reliability workers write (worker.ts) and the sections read back. */
import { existsSync, readFileSync } from 'node:fs';

/** One acknowledged write, as a line of an acknowledgement log. */
export interface Acknowledged {
  id: string;
  marker: string;
  /** Milliseconds since the epoch when the write was acknowledged. */
  at: number;
}

/** What a concurrent worker reports on standard output when its time is up. */
export interface ConcurrentSummary {
  worker: number;
  writes: number;
  searches: number;
  errors: string[];
  /** Searches that missed a memory another worker acknowledged more than a second before. */
  misses: { marker: string; ackedMsBefore: number }[];
}

/** Complete lines of an acknowledgement log; a line cut short by a kill was never acknowledged. */
export function readAckLog(file: string): Acknowledged[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Acknowledged);
}
