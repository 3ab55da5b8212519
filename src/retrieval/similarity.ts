/**
 * How alike two memories are, for MMR diversity and backbone de-duplication: the cosine of
 * their embeddings when both have one, and never less than the overlap of their words (Jaccard
 * of stemmed content words), so identical texts count as duplicates even without vectors.
 */
import { cosine } from '../store/vector/cosine.js';
import { stemSet } from './coverage.js';

/** Similarity of two memories by id, in [0, 1]. */
export type Similarity = (a: string, b: string) => number;

/** Builds a memoised similarity over these memories' texts and (optional) vectors. */
export function memorySimilarity(texts: ReadonlyMap<string, string>, vectors: ReadonlyMap<string, Float32Array>): Similarity {
  const stems = new Map<string, Set<string>>();
  const stemsOf = (id: string) => {
    let set = stems.get(id);
    if (!set) {
      set = stemSet(texts.get(id) ?? '', 4000);
      stems.set(id, set);
    }
    return set;
  };
  const memo = new Map<string, number>();
  return (a, b) => {
    if (a === b) return 1;
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    let value = memo.get(key);
    if (value === undefined) {
      const va = vectors.get(a);
      const vb = vectors.get(b);
      const cos = va && vb ? Math.max(0, cosine(va, vb)) : 0;
      value = Math.max(cos, jaccard(stemsOf(a), stemsOf(b)));
      memo.set(key, value);
    }
    return value;
  };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}
