/**
 * What the doctor's vector part concludes from what each backend counted (one vector per memory
 * but the working set, none stray or under another tenant, every vector and code of the recorded
 * length), worded the same for both; each backend counts with its own SQL and repairs in it.
 */
import type { DoctorFinding } from './doctor-report.js';
import { examples, findingsOf, plural, REPAIR_COMMAND, repairable } from './doctor-wording.js';
import type { VectorIndexInfo } from './store.js';

/** The id recorded for a database stored without vectors (NO_EMBEDDER_ID of the embedding layer, above this one). */
export const NO_EMBEDDER = 'none';

/** What `engram_meta` records about the vectors' embedder: the info, none yet, or something unreadable. */
export type RecordedEmbedder = { info: VectorIndexInfo | null } | { unreadable: string };

/** Reads the recorded embedder from its stored text (undefined: nothing recorded). */
export function parseRecordedEmbedder(value: string | undefined): RecordedEmbedder {
  if (value === undefined) return { info: null };
  try {
    const info = JSON.parse(value) as Partial<VectorIndexInfo>;
    if (typeof info.model === 'string' && typeof info.dimensions === 'number') return { info: info as VectorIndexInfo };
  } catch {
    // not JSON: unreadable, like any other shape that is not a VectorIndexInfo
  }
  return { unreadable: value };
}

/** Whether vectors are expected: an embedder is recorded and it is not "none". */
export function embedsWith(recorded: RecordedEmbedder): VectorIndexInfo | null {
  return 'info' in recorded && recorded.info !== null && recorded.info.model !== NO_EMBEDDER ? recorded.info : null;
}

/** What a backend counted for the vector part. */
export interface VectorCounts {
  recorded: RecordedEmbedder;
  vectors: number;
  /** Vectors whose memory is gone. */
  stray: number;
  /** Vectors under another tenant than their memory's. */
  misplaced: number;
  /** Vectors not of the recorded length (0 when no embedder is recorded). */
  wrongLength: number;
  badCodes: number;
  /** Memories without a vector when one is expected, and a few of their ids. */
  missing: number;
  missingIds: readonly string[];
}

export function vectorFindings(counts: VectorCounts): DoctorFinding[] {
  const { recorded, vectors } = counts;
  const problems: DoctorFinding[] = [];
  if ('unreadable' in recorded) {
    problems.push({
      check: 'vectors',
      status: 'problem',
      message: `the recorded embedder is unreadable (${recorded.unreadable.slice(0, 60)})`,
      fix: 'engram reindex records it anew with every vector',
    });
  }
  const info = 'info' in recorded ? recorded.info : null;
  if (vectors > 0 && info?.model === NO_EMBEDDER) {
    problems.push(repairable('vectors', `${plural(vectors, 'vector')} in a database recorded as lexical-only`, 'removes them'));
  }
  if (vectors > 0 && info === null) {
    problems.push({
      check: 'vectors',
      status: 'problem',
      message: `${plural(vectors, 'vector')} but no embedder recorded for them`,
      fix: 'engram reindex re-embeds every memory and records the embedder',
    });
  }
  if (counts.stray > 0)
    problems.push(repairable('vectors', `${plural(counts.stray, 'vector')} without a memory`, 'removes them'));
  if (counts.misplaced > 0) {
    problems.push(
      repairable('vectors', `${plural(counts.misplaced, 'vector')} filed under another tenant than its memory`, 'moves them'),
    );
  }
  if (counts.wrongLength > 0 && info !== null) {
    problems.push(
      repairable(
        'vectors',
        `${plural(counts.wrongLength, 'vector')} not of the recorded ${info.dimensions} dimensions`,
        'removes them and embeds those memories again',
      ),
    );
  }
  if (counts.badCodes > 0) {
    problems.push(repairable('vectors', `${plural(counts.badCodes, 'binary code')} of the wrong length`, 'recomputes them'));
  }
  if (counts.missing > 0) {
    problems.push({
      check: 'vectors',
      status: 'problem',
      message: `${plural(counts.missing, 'memory', 'memories')} without a vector${examples(counts.missingIds, counts.missing)}: search by meaning cannot find them`,
      fix: `${REPAIR_COMMAND} embeds them when the configured embedder made the other vectors; otherwise engram reindex does`,
    });
  }
  const healthy =
    vectors === 0
      ? info?.model === NO_EMBEDDER || info === null
        ? 'no vectors: search goes by words alone'
        : 'no vectors yet'
      : `${plural(vectors, 'vector')} of ${info?.dimensions ?? '?'} dimensions, one for each memory`;
  return findingsOf('vectors', problems, healthy);
}
