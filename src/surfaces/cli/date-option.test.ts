import { describe, expect, it } from 'vitest';

import { dateOption } from './date-option.js';

/** 23:30 local time on 1 March 2026: "yesterday" crosses the end of February. */
const NOW = new Date(2026, 2, 1, 23, 30);

describe('dateOption', () => {
  it.each([
    ['2026-01-31', '2026-01-31'],
    ['2024-02-29', '2024-02-29'],
    [' 2026-01-31 ', '2026-01-31'],
    ['2026-01-31T09:00:00Z', '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T09:00:00.250Z', '2026-01-31T09:00:00.250Z'],
    ['2026-01-31T09:00+01:00', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T09:00:00-0500', '2026-01-31T14:00:00.000Z'],
    ['today', '2026-03-01'],
    ['Today', '2026-03-01'],
    ['yesterday', '2026-02-28'],
  ])('reads %j as %s', (raw, expected) => {
    expect(dateOption(raw, '--after', NOW)).toBe(expected);
  });

  it('reads a time without an offset as local time, as ISO 8601 does', () => {
    expect(dateOption('2026-01-31T09:00', '--after', NOW)).toBe(new Date(2026, 0, 31, 9, 0).toISOString());
  });

  it('passes a flag that was not given through as undefined', () => {
    expect(dateOption(undefined, '--after', NOW)).toBeUndefined();
  });

  it.each([
    'tomorrow',
    'last week',
    'May 5 2023',
    '2026/01/31',
    '31.01.2026',
    '2026-1-31',
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-01-31T25:00',
    '2026-01-31T09:00:00+25:00',
    '1700000000',
    '',
  ])('refuses %j, naming the flag and the forms it takes', (raw) => {
    expect(() => dateOption(raw, '--occurred-at', NOW)).toThrow(
      `--occurred-at is not a date: ${JSON.stringify(raw)}; give an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z, or today or yesterday`,
    );
  });
});
