/**
 * A stand-in embedder for scale benchmarks, where the real model (~60 texts/s here) would take
 * hours: deterministic clustered unit vectors, not uniform noise. A text's cluster comes from
 * its topic words, so a query about "the billing service" lands near memories about it; the
 * spread inside a cluster (cosine ~0.5 to its centre) resembles sentence embeddings'.
 * Benchmarks that use it say so in their output.
 */
import { createHash } from 'node:crypto';

import type { Embedder } from 'engram';

import { seededRandom } from './synthetic-memories.js';

const DIMENSIONS = 512;
const CLUSTERS = 256;

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  return vector.map((value) => value / norm);
}

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0);
}

/** Clustered synthetic vectors; `topicOf` picks the words that choose the cluster. */
export function createSyntheticEmbedder(topicOf: (text: string) => string): Embedder {
  const random = seededRandom(42);
  const centres = Array.from({ length: CLUSTERS }, () => unit(Float32Array.from({ length: DIMENSIONS }, () => gaussian(random))));
  return {
    id: 'synthetic:clustered-512',
    dimensions: DIMENSIONS,
    embed(texts) {
      return Promise.resolve(
        texts.map((text) => {
          const centre = centres[seedOf(topicOf(text)) % CLUSTERS] as Float32Array;
          const noise = seededRandom(seedOf(text));
          return unit(centre.map((value) => value + gaussian(noise) / Math.sqrt(DIMENSIONS)));
        }),
      );
    },
  };
}
