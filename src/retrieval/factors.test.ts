import { describe, expect, it } from 'vitest';

import { parseLexicalQuery } from '../text/lexical-query.js';
import { words } from '../text/words.js';
import { exactFactor, exactPhrases, recencyFactor, scopeFactor } from './factors.js';

const settings = { recencyWeight: 0.1, recencyHalfLifeDays: 30, exactBoost: 0.15 };
const now = new Date('2026-03-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('the recency factor', () => {
  it('is 1 for a memory from now, loses half its weight per half-life, and approaches 1 − weight', () => {
    expect(recencyFactor(daysAgo(0), now, settings)).toBe(1);
    expect(recencyFactor(daysAgo(30), now, settings)).toBeCloseTo(0.95, 12);
    expect(recencyFactor(daysAgo(60), now, settings)).toBeCloseTo(0.925, 12);
    expect(recencyFactor(daysAgo(3650), now, settings)).toBeCloseTo(0.9, 6);
  });

  it('treats a memory dated in the future as new', () => {
    expect(recencyFactor('2027-01-01T00:00:00.000Z', now, settings)).toBe(1);
  });
});

describe('the scope factor', () => {
  it('favours the most specific scope named first', () => {
    const scopes = ['session:abc', 'user:alice', 'global'];
    expect(scopeFactor('session:abc', scopes)).toBe(1);
    expect(scopeFactor('user:alice', scopes)).toBeCloseTo(0.95, 12);
    expect(scopeFactor('global', scopes)).toBeCloseTo(0.9, 12);
    expect(scopeFactor('global', undefined)).toBe(1);
  });
});

describe('the exact-match factor', () => {
  const memoryWords = words('Caroline went to the LGBTQ support group yesterday.');
  const exact = (query: string) => exactFactor(memoryWords, exactPhrases(parseLexicalQuery(query), words(query)), settings);

  it('boosts a memory holding a quoted phrase', () => {
    expect(exact('"support group" meeting')).toBeCloseTo(1.15, 12);
  });

  it('boosts a memory holding every query word in order', () => {
    expect(exact('LGBTQ support group')).toBeCloseTo(1.15, 12);
  });

  it('leaves other memories alone', () => {
    expect(exact('"group support"')).toBe(1);
    expect(exact('support')).toBe(1);
  });
});
