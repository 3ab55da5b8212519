/**
 * How the doctor words what it finds, the same for every backend: counts, example ids, an `ok`
 * finding for a healthy part, and the fix line of a problem the repair can mend.
 */
import type { DoctorCheck, DoctorFinding } from './doctor-report.js';

/** `3 memories` / `1 memory`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** ` (01J…, 01J…, …)`: a few ids, so a person can look them up. */
export function examples(ids: readonly string[], total: number): string {
  if (ids.length === 0) return '';
  return ` (${ids.join(', ')}${total > ids.length ? ', …' : ''})`;
}

/** How many example ids a finding names at most. */
export const EXAMPLES = 3;

/** The findings of a part with nothing wrong, or its problems. */
export function findingsOf(check: DoctorCheck, problems: DoctorFinding[], healthy: string): DoctorFinding[] {
  return problems.length > 0 ? problems : [{ check, status: 'ok', message: healthy, fix: null }];
}

/** How every fix the repair makes begins, so a reader (and the summary line) can tell them apart. */
export const REPAIR_COMMAND = 'engram doctor --repair';

/** A problem that `engram doctor --repair` fixes. */
export function repairable(check: DoctorCheck, message: string, what: string): DoctorFinding {
  return { check, status: 'problem', message, fix: `${REPAIR_COMMAND} ${what}` };
}

/**
 * A notice of the memories whose graph extraction failed: not a fault of the database (they
 * are stored and searchable), but the graph lacks them until `engram reindex` extracts them.
 */
export function extractionFailureNotice(count: number, newest: readonly { id: string; error: string }[]): DoctorFinding {
  const latest = newest[0] ? `; the latest: ${newest[0].error}` : '';
  return {
    check: 'graph',
    status: 'notice',
    message: `graph extraction failed for ${plural(count, 'memory', 'memories')}${examples(
      newest.map((row) => row.id),
      count,
    )}: they are stored and searchable, but the graph does not name them${latest}`,
    fix: 'engram reindex extracts every memory again; engram log shows each failure',
  };
}
