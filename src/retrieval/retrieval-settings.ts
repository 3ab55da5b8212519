/**
 * How searches are made: the fusion, the weights, the pool drawn from each index, the factors,
 * graph recall, and the two things the engine keeps across searches (the stores' calibration
 * samples and memories' words), passed through as the engine keeps them.
 */
import type { Fusion } from '../model/search-request.js';
import type { CalibrationSamples } from './calibration-sample.js';
import type { FactorSettings } from './factors.js';
import type { KeptMemoryWords } from './word-signals.js';

export interface RetrievalSettings {
  fusion: Fusion;
  /** Weight of word coverage against meaning in weighted fusion. */
  lexicalWeight: number;
  /** Candidates drawn from each index. */
  candidates: number;
  factors: FactorSettings;
  /** Graph-aware recall in hybrid mode with weighted fusion (see graph-recall.ts and search-strategy.ts). */
  graph: boolean;
  /**
   * The stores' samples for per-store calibration (store-calibration.ts), kept by the engine;
   * without them relevance is the fixed curve alone.
   */
  samples?: CalibrationSamples | undefined;
  /** Memories' own words, kept by the engine across searches (word-signals.ts); split per search without. */
  memoryWords?: KeptMemoryWords | undefined;
}
