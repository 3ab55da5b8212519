import { describe, expect, it } from 'vitest';

import { entityHref, memoryHref, safeNextPath, withQuery } from './links.js';

describe('links', () => {
  it('encodes stored values so they stay inside the inspector’s paths', () => {
    expect(memoryHref('../../v1/stats')).toBe('/memories/..%2F..%2Fv1%2Fstats');
    expect(memoryHref('javascript:alert(1)')).toBe('/memories/javascript%3Aalert(1)');
    expect(entityHref('A & B "<x>"')).toBe('/graph/entity?name=A+%26+B+%22%3Cx%3E%22');
  });

  it('leaves empty query values out', () => {
    expect(withQuery('/memories', { q: 'billing', kind: '', tier: undefined, offset: 0, all: false })).toBe(
      '/memories?q=billing&offset=0',
    );
    expect(withQuery('/memories', {})).toBe('/memories');
  });

  it.each([
    ['/memories?q=x', '/memories?q=x'],
    ['/', '/'],
    [undefined, '/'],
    ['', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/memories\nSet-Cookie: x', '/'],
  ])('sends sign-in on to %j as %j: never another site', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});
