import { describe, expect, it } from 'vitest';

import { matchesFilter, parseValueFilter } from './value-filter.js';

const value = { status: 'active', score: 4.5, count: '7', owner: { name: 'Alice' }, tags: ['a', 'b'], none: null };

describe('search filters on value fields', () => {
  it.each([
    [{ status: 'active' }, true],
    [{ status: 'archived' }, false],
    [{ score: { $gt: 4 } }, true],
    [{ score: { $gt: 4.5 } }, false],
    [{ score: { $gte: 4.5, $lte: 4.5 } }, true],
    [{ score: { $lt: 4 } }, false],
    [{ count: { $gt: 6 } }, true], // both sides compared as numbers, as InMemoryStore does
    [{ count: 7 }, false], // equality is strict: "7" is not 7
    [{ status: { $in: ['active', 'paused'] } }, true],
    [{ status: { $nin: ['active'] } }, false],
    [{ status: { $ne: 'archived' } }, true],
    [{ missing: { $ne: 'x' } }, true],
    [{ missing: { $gt: 0 } }, false],
    [{ none: null }, true],
    [{ owner: { name: 'Alice' } }, true],
    [{ owner: { name: 'Bob' } }, false],
    [{ tags: ['a', 'b'] }, true],
    [{ tags: { $eq: ['b', 'a'] } }, false],
    [{ status: 'active', score: { $gt: 5 } }, false],
    [{}, true],
  ])('%j matches: %s', (filter, expected) => {
    expect(matchesFilter(value, parseValueFilter(filter))).toBe(expected);
  });

  it.each([
    [{ status: { $regex: 'act' } }, 'unknown filter operator $regex on status'],
    [{ status: { $in: 'active' } }, '$in on status takes a list of values'],
    [['status'], 'a search filter is an object of field values'],
  ])('refuses %j, naming what is wrong', (filter, message) => {
    expect(() => parseValueFilter(filter)).toThrow(message);
  });
});
