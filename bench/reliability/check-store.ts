/**
 * What the crash and concurrency sections check after the fact, through Engram's own code: the
 * doctor (`doctorDatabase`: SQLite's integrity_check, every memory in the full-text and vector
 * indexes and nothing extra there), and which acknowledged ids the store no longer holds.
 */
import { SqliteStore } from 'engram/internal';
import { doctorDatabase } from 'engram/maintenance';

import type { Acknowledged } from './ack-log.js';

/** Problems the doctor found, by the figure they count toward. */
export interface StoreCheck {
  integrityFailures: number;
  indexMismatches: number;
  /** The doctor's problem messages, for the report. */
  problems: string[];
}

/** Runs the doctor read-only; the embedder check is left out (the trials mix embedders on purpose). */
export async function checkStore(file: string): Promise<StoreCheck> {
  const report = await doctorDatabase({ path: file, embedder: null });
  const problems = report.findings.filter((finding) => finding.status === 'problem' && finding.check !== 'embedder');
  return {
    integrityFailures: problems.filter((finding) => finding.check === 'integrity' || finding.check === 'schema').length,
    indexMismatches: problems.filter((finding) => finding.check === 'full_text' || finding.check === 'vectors').length,
    problems: problems.map((finding) => `${finding.check}: ${finding.message}`),
  };
}

/** The acknowledged writes the database does not hold (tenant `default`). */
export async function findLost(file: string, acknowledged: readonly Acknowledged[]): Promise<Acknowledged[]> {
  const store = new SqliteStore(file);
  try {
    const found = new Set<string>();
    for (let start = 0; start < acknowledged.length; start += 500) {
      const ids = acknowledged.slice(start, start + 500).map((entry) => entry.id);
      for (const memory of await store.getMemories('default', ids)) found.add(memory.id);
    }
    return acknowledged.filter((entry) => !found.has(entry.id));
  } finally {
    await store.close();
  }
}
