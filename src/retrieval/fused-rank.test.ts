import { describe, expect, it } from 'vitest';

import { fusedScore, fusedScores, type FusionFeatures } from './fused-rank.js';

/** A middling candidate: some words, some meaning, in both lists, no graph path. */
const plain: FusionFeatures = {
  coverage: 0.4,
  bm25: 2,
  cosine: 0.3,
  about: false,
  dated: false,
  onDay: false,
  placed: false,
  besideBest: null,
  lexicalRank: 10,
  length: 80,
  neighbourRaw: 0,
  questionShare: 0,
};

describe('fusedScore: the order of a graph-aware search', () => {
  it.each<[string, Partial<FusionFeatures>]>([
    ['more of the query’s words', { coverage: 0.8 }],
    ['a higher BM25', { bm25: 6 }],
    ['closer in meaning', { cosine: 0.6 }],
    ['about an entity the query names', { about: true }],
    ['dated, for a question about time', { dated: true }],
    ['of a day the question pins', { onDay: true }],
    ['naming a place, for a question about a place', { placed: true }],
    ['beside one of the best hits', { besideBest: 1 }],
    ['higher in the full-text list', { lexicalRank: 1 }],
    ['longer', { length: 300 }],
    ['right beside a candidate that matched well', { neighbourRaw: 0.5 }],
  ])('ranks a memory higher when it is %s', (_, change) => {
    expect(fusedScore({ ...plain, ...change })).toBeGreaterThan(fusedScore(plain));
  });

  it('ranks a memory lower the more of it asks rather than tells', () => {
    const at = (questionShare: number) => fusedScore({ ...plain, questionShare });
    expect(at(0.5)).toBeLessThan(at(0));
    expect(at(1)).toBeLessThan(at(0.5));
  });

  it('counts the turn right beside a best hit above the one two turns away, and either above none', () => {
    const at = (besideBest: number | null) => fusedScore({ ...plain, besideBest });
    expect(at(1)).toBeGreaterThan(at(2));
    expect(at(2)).toBeGreaterThan(at(null));
  });

  it('reads a missing BM25 or list place as nothing, and negative cosine as 0', () => {
    const missing = fusedScore({ ...plain, bm25: null, lexicalRank: null });
    expect(missing).toBeLessThan(fusedScore(plain));
    expect(fusedScore({ ...plain, cosine: -0.4 })).toBeCloseTo(fusedScore({ ...plain, cosine: 0 }), 10);
  });
});

describe('fusedScores: the order of a search, sessions ranked first', () => {
  const strong: FusionFeatures = { ...plain, cosine: 0.7, coverage: 0.8 };

  it('ranks a memory of the best-matching session above an equal one of a session that matched nothing else', () => {
    const [best, sameSession, otherSession] = fusedScores([
      { features: strong, session: 'a' },
      { features: plain, session: 'a' },
      { features: plain, session: 'b' },
    ]);
    expect(best).toBeCloseTo(fusedScore(strong), 12);
    expect(sameSession).toBeCloseTo(fusedScore(plain), 12);
    expect(otherSession).toBeLessThan(sameSession!);
  });

  it('lets a session stand by its best match only, not by its number of candidates', () => {
    const scores = fusedScores([
      { features: strong, session: 'a' },
      { features: plain, session: 'b' },
      { features: plain, session: 'b' },
      { features: plain, session: 'b' },
    ]);
    expect(scores[1]).toBeCloseTo(scores[3]!, 12);
    expect(scores[1]).toBeLessThan(fusedScore(plain));
  });

  it('lets a memory in no session stand alone, and keeps the order of memories in none', () => {
    const loose = fusedScores([
      { features: strong, session: null },
      { features: plain, session: null },
    ]);
    expect(loose[0]).toBeCloseTo(fusedScore(strong), 12);
    expect(loose[1]).toBeLessThan(fusedScore(plain));
    expect(loose[0]).toBeGreaterThan(loose[1]!);
  });

  it('does not let a session gain from its questions: its standing is by what its memories matched', () => {
    const [, answer] = fusedScores([
      { features: { ...strong, questionShare: 1 }, session: 'a' },
      { features: plain, session: 'a' },
    ]);
    expect(answer).toBeCloseTo(fusedScore(plain), 12);
  });

  it('is empty for no candidates', () => {
    expect(fusedScores([])).toEqual([]);
  });
});
