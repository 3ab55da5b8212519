import { describe, expect, it } from 'vitest';

import { queryNames } from './query-names.js';

describe('queryNames', () => {
  it('offers every run of one to four words, without lone function words or possessive s', () => {
    const names = queryNames("What did Maya's sister say about the Tate Modern?");
    expect(names).toContain('maya');
    expect(names).toContain('tate modern');
    expect(names).toContain('the tate modern');
    expect(names).toContain('maya sister');
    expect(names).not.toContain('what');
    expect(names).not.toContain('the');
    expect(names).not.toContain('s');
    expect(names.every((name) => name.split(' ').length <= 4)).toBe(true);
  });

  it('offers each name once and nothing for an empty query', () => {
    expect(queryNames('Maya maya MAYA')).toEqual(['maya', 'maya maya', 'maya maya maya']);
    expect(queryNames('  ?! ')).toEqual([]);
  });

  it('reads a bounded number of words however long the query', () => {
    const names = queryNames(Array.from({ length: 5_000 }, (_, i) => `w${i}`).join(' '));
    expect(names).toContain('w199');
    expect(names).not.toContain('w200');
  });
});
