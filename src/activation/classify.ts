/**
 * Sorting scored candidates before selection: below the threshold (seed 000/001, checked
 * after the cooldown decay), cooled down (relevant enough, but retrieved too recently), a
 * near copy of what the working set already carries (seed 002's `dedupe_backbone`; the carried
 * memories themselves are not candidates), or eligible.
 */
import type { Similarity } from '../retrieval/similarity.js';
import type { ScoredCandidate } from './score.js';

export interface Classified {
  eligible: ScoredCandidate[];
  belowThreshold: ScoredCandidate[];
  cooledDown: ScoredCandidate[];
  backboneDuplicates: ScoredCandidate[];
}

export interface ClassifyRequest {
  scored: readonly ScoredCandidate[];
  threshold: number;
  /** Ids carried by the working set (left out here), whose near copies count as duplicates; empty when de-duplication is off. */
  backbone: readonly string[];
  similarity: Similarity;
  nearDuplicate: number;
}

export function classifyCandidates({ scored, threshold, backbone, similarity, nearDuplicate }: ClassifyRequest): Classified {
  const classified: Classified = { eligible: [], belowThreshold: [], cooledDown: [], backboneDuplicates: [] };
  for (const candidate of scored) {
    const { relevance, effectiveRelevance } = candidate.factors;
    // Already injected by the working set (pinnedByWorkingSet): not a hot-lane candidate at all.
    if (backbone.includes(candidate.memory.id)) continue;
    if (effectiveRelevance < threshold) {
      // seed 001: the decay applies before the threshold check
      (relevance >= threshold ? classified.cooledDown : classified.belowThreshold).push(candidate);
    } else if (backbone.some((id) => similarity(id, candidate.memory.id) >= nearDuplicate)) {
      classified.backboneDuplicates.push(candidate);
    } else {
      classified.eligible.push(candidate);
    }
  }
  return classified;
}
