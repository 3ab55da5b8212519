/**
 * Extraction never throws on a date phrase, and every date it keeps is a real day of years
 * 0001–9999 (calendar.ts). The corpus is generated: counts of every unit up to 10^9 and past
 * it, ago and ahead, spelled out and in digits, BC and BCE years, year 0, days that do not
 * exist, negative and absurd numbers, read from days at both ends of the supported range.
 */
import { describe, expect, it } from 'vitest';

import { isSupportedDay } from './calendar.js';
import { extractGraph } from './extract.js';

const COUNTS = [
  '0',
  '1',
  '2',
  '12',
  '99',
  '1000',
  '2023',
  '5000',
  '6000',
  '9999',
  '10000',
  '100000',
  '1000000',
  '10000000',
  '100000000',
  '1000000000',
];
const UNITS = ['days', 'weeks', 'months', 'years', 'hours', 'decades', 'centuries'];
const FORMS = [
  (n: string, unit: string) => `Writing emerged about ${n} ${unit} ago.`,
  (n: string, unit: string) => `We will be back in ${n} ${unit}.`,
  (n: string, unit: string) => `${n} ${unit} from now the lease ends.`,
];

const SPELLED = [
  'about 5000 or 6000 years ago',
  'a billion years ago',
  'a hundred billion days ago',
  'two thousand years ago',
  'twelve thousand weeks later',
  'in a trillion years',
  'ninety-nine million months ago',
];
const ODD = [
  'Caesar crossed the Rubicon in 49 BC.',
  'The city was founded in 753 BCE.',
  'Around 3000 BC the wheel spread.',
  'It happened in the year 0.',
  'the year 0000',
  'On 31 February we met.',
  'February 30, 2023 was a Thursday.',
  'See you on 2023-02-31.',
  'in the year 10000',
  'by the year 99999',
  'on 9999-12-31',
  'on 0000-01-01',
  'on -0001-05-05',
  'December 31, 9999',
  'January 1, 0001',
  'the week of December 31, 9999',
  '1e309 days ago',
  '99999999999999999999999999 years ago',
  '99,999,999,999 days from now',
  'Infinity days ago',
  'NaN weeks ago',
  '-5 days ago',
  'in -3 weeks',
  'minus 20 years ago',
  '10^9 days ago',
  'next week',
  'last year',
  'tomorrow',
];
/** Days at both ends of the range and an ordinary one; relative dates are read from them. */
const DAYS = ['0001-01-01T00:00:00Z', '2024-03-13T10:00:00Z', '9999-12-31T23:59:59Z'];

const corpus: string[] = [
  ...COUNTS.flatMap((n) => UNITS.flatMap((unit) => FORMS.map((form) => form(n, unit)))),
  ...SPELLED,
  ...ODD,
];

describe('extraction over a corpus of date phrases', () => {
  it(`neither throws nor keeps a day outside 0001–9999 on ${corpus.length} phrases read from ${DAYS.length} days`, () => {
    const failures: string[] = [];
    for (const occurredAt of DAYS) {
      // The far end is read only for the short phrases: the counted ones are the same from there.
      for (const text of occurredAt.startsWith('2024') ? corpus : [...SPELLED, ...ODD]) {
        try {
          for (const date of extractGraph({ text, occurredAt }).dates) {
            if (!isSupportedDay(date.start) || !isSupportedDay(date.end) || date.start > date.end) {
              failures.push(`${JSON.stringify(text)} from ${occurredAt}: kept ${date.start}..${date.end}`);
            }
          }
        } catch (error) {
          failures.push(`${JSON.stringify(text)} from ${occurredAt}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['Writing emerged about 6000 years ago.', '2024-03-13T10:00:00Z'],
    ['We will be back in 8000 years.', '2024-03-13T10:00:00Z'],
    ['It ends 99999999999 days from now.', '2024-03-13T10:00:00Z'],
  ])('drops the date of %j, which is out of range, and keeps the rest', (text, occurredAt) => {
    expect(extractGraph({ text, occurredAt }).dates).toEqual([]);
  });

  it('keeps a date far back that is still in range, as a year', () => {
    // The dates plugin counts leap days roughly, so 2000 years before 2024 lands in year 23 or 24.
    expect(extractGraph({ text: 'The bridge was built 2000 years ago.', occurredAt: '2024-03-13T10:00:00Z' }).dates).toEqual([
      {
        text: '2000 years ago',
        start: expect.stringMatching(/^002[34]-01-01$/),
        end: expect.stringMatching(/^002[34]-12-31$/),
        grain: 'year',
      },
    ]);
  });
});

describe('isSupportedDay', () => {
  it.each([
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2024-02-29', true],
    ['0000-12-31', false],
    ['2023-02-29', false],
    ['2023-02-31', false],
    ['+10000-01-01', false],
    ['-003977-03-13', false],
    ['2023-13-01', false],
    ['', false],
  ])('%j is supported: %s', (day, supported) => {
    expect(isSupportedDay(day)).toBe(supported);
  });
});
