import { describe, expect, it } from 'vitest';

import { categoryName, normalizeEvidence, parseDiaId, parseLocomoDate } from './locomo-data.js';

const known = new Set(['D1:1', 'D1:2', 'D8:6', 'D9:17', 'D11:26', 'D30:5']);

describe('normalizeEvidence', () => {
  it('keeps well-formed ids that name a turn', () => {
    expect(normalizeEvidence(['D1:1', 'D1:2'], known)).toEqual({ ids: ['D1:1', 'D1:2'], repaired: [], unresolved: [] });
  });

  it('splits an entry holding several ids on semicolons, commas and spaces', () => {
    expect(normalizeEvidence(['D8:6; D9:17'], known).ids).toEqual(['D8:6', 'D9:17']);
    expect(normalizeEvidence(['D8:6,D9:17'], known).ids).toEqual(['D8:6', 'D9:17']);
    expect(normalizeEvidence(['D8:6 D9:17'], known)).toEqual({
      ids: ['D8:6', 'D9:17'],
      repaired: ['D8:6 D9:17'],
      unresolved: [],
    });
  });

  it('repairs a stray colon and leading zeros', () => {
    expect(normalizeEvidence(['D:11:26'], known)).toEqual({ ids: ['D11:26'], repaired: ['D:11:26'], unresolved: [] });
    expect(normalizeEvidence(['D30:05'], known)).toEqual({ ids: ['D30:5'], repaired: ['D30:05'], unresolved: [] });
  });

  it('drops ids that name no turn and pieces that are no id at all', () => {
    expect(normalizeEvidence(['D1:1', 'D10:19', 'D'], known)).toEqual({
      ids: ['D1:1'],
      repaired: [],
      unresolved: ['D10:19', 'D'],
    });
  });

  it('lists each id once', () => {
    expect(normalizeEvidence(['D1:1', 'D1:01', 'D1:1; D1:2'], known).ids).toEqual(['D1:1', 'D1:2']);
  });

  it('resolves nothing for a question without evidence', () => {
    expect(normalizeEvidence([], known)).toEqual({ ids: [], repaired: [], unresolved: [] });
  });
});

describe('parseDiaId', () => {
  it('writes dialogue ids in one canonical form', () => {
    expect(parseDiaId('D3:7')).toBe('D3:7');
    expect(parseDiaId(' d03:007 ')).toBe('D3:7');
    expect(parseDiaId('D:11:26')).toBe('D11:26');
    expect(parseDiaId('D')).toBeNull();
    expect(parseDiaId('S1:2')).toBeNull();
  });
});

describe('parseLocomoDate', () => {
  it('reads LoCoMo session dates as UTC', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseLocomoDate('12:09 am on 13 September, 2023')).toBe('2023-09-13T00:09:00.000Z');
    expect(parseLocomoDate('12:30 pm on 1 January, 2024')).toBe('2024-01-01T12:30:00.000Z');
  });

  it('leaves dates it cannot read undefined', () => {
    expect(parseLocomoDate('yesterday')).toBeUndefined();
    expect(parseLocomoDate('1:56 pm on 31 February, 2023')).toBeUndefined();
    expect(parseLocomoDate('1:56 pm on 8 Smarch, 2023')).toBeUndefined();
  });
});

describe('categoryName', () => {
  it('names the five LoCoMo categories and falls back for others', () => {
    expect([1, 2, 3, 4, 5].map(categoryName)).toEqual(['multi-hop', 'temporal', 'open-domain', 'single-hop', 'adversarial']);
    expect(categoryName(9)).toBe('category-9');
  });
});
