/**
 * The days a question pins: "on 31 Dec 2023", "10.01.2024", "the night of 10.01.2024", "on
 * January 5th", "the first week of 2024". A calendar date written out in the question names
 * the days its answer was said on or is about; recall lets the memories of those days gain
 * (graph-recall.ts). Plain text matching, no parser: recall reads it on every query, so it must
 * not load the NLP library.
 *
 * Only dates a reader can place on the calendar without knowing when the question was asked
 * are read, and a day of the month without a year ("on January 5th"), the latest such day up
 * to today. Words relative to the question's own time ("yesterday", "last week") and whole
 * months, seasons or years ("in May 2023", "in 2017") are not: a conversation remembered
 * later was about its own yesterday, and a month covers too much of it to single a turn out.
 */
import { addDays, isSupportedDay } from './calendar.js';
import { numericDates } from './numeric-dates.js';

/** An inclusive range of UTC days, `YYYY-MM-DD`. */
export interface DayRange {
  start: string;
  end: string;
}

const MONTHS = [
  'jan(?:uary)?',
  'feb(?:ruary)?',
  'mar(?:ch)?',
  'apr(?:il)?',
  'may',
  'june?',
  'july?',
  'aug(?:ust)?',
  'sep(?:t(?:ember)?)?',
  'oct(?:ober)?',
  'nov(?:ember)?',
  'dec(?:ember)?',
];
const MONTH = `(${MONTHS.join('|')})\\.?`;
const ORDINAL = '(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

/** "2024-01-10" */
const ISO_DAY = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g;
/** "31 Dec 2023", "5th of January, 2024", "5 January" */
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})${ORDINAL}\\s+(?:of\\s+)?${MONTH}(?:,?\\s*${YEAR})?(?![\\w-])`, 'gi');
/** "December 31, 2023", "Jan 5th 2024", "January 5th" */
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?(\\d{1,2})${ORDINAL}\\b(?:,?\\s*${YEAR}\\b)?`, 'gi');
/** "the first week of 2024", "the last week of January 2024", "the second week of March" */
const WEEK_OF = new RegExp(
  `\\b(first|1st|second|2nd|third|3rd|fourth|4th|last)\\s+week\\s+of\\s+(?:${MONTH}(?![\\w-])\\s*,?\\s*)?(?:${YEAR}\\b)?`,
  'gi',
);

/** The weeks of a month WEEK_OF names, counted from 0 ("last" is counted back from its end). */
const WEEK_INDEX: Readonly<Record<string, number>> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  fourth: 3,
  '4th': 3,
};

/** A pinned range wider than this is no pin: it would lift much of a conversation. */
const MAX_DAYS = 31;

const pad = (n: number): string => String(n).padStart(2, '0');

function monthIndex(word: string): number {
  const lower = word.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((pattern) => new RegExp(`^(?:${pattern})$`).test(lower)) + 1;
}

/** The day `year`-`month`-`day`, or, without a year, the latest such day up to `today`; undefined when there is none. */
function calendarDay(day: number, month: number, year: string | undefined, today: string): string | undefined {
  if (year !== undefined) {
    const iso = `${year}-${pad(month)}-${pad(day)}`;
    return isSupportedDay(iso) ? iso : undefined;
  }
  // 29 February waits up to four years for its day.
  for (let back = 0, from = Number(today.slice(0, 4)); back <= 4; back += 1) {
    const iso = `${String(from - back).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
    if (isSupportedDay(iso) && iso <= today) return iso;
  }
  return undefined;
}

/** The last day of `month` (1–12) of `year`. */
function lastDayOf(year: string, month: number): string {
  for (let day = 31; day > 28; day -= 1) {
    const iso = `${year}-${pad(month)}-${pad(day)}`;
    if (isSupportedDay(iso)) return iso;
  }
  return `${year}-${pad(month)}-28`;
}

/** "the first week of …": the first seven days of the month (January for a year alone), the last seven, … */
function weekOf(ordinal: string, month: number, year: string): DayRange | undefined {
  const first = `${year}-${pad(month)}-01`;
  if (!isSupportedDay(first)) return undefined;
  const o = ordinal.toLowerCase();
  if (o === 'last') {
    const end = lastDayOf(year, month);
    return { start: addDays(end, -6), end };
  }
  const start = addDays(first, 7 * (WEEK_INDEX[o] ?? 0));
  return { start, end: addDays(start, 6) };
}

/** Every range `question` names, in no particular order. */
function rangesIn(question: string, today: string): DayRange[] {
  const ranges: DayRange[] = [];
  const add = (day: string | undefined) => day !== undefined && ranges.push({ start: day, end: day });
  for (const date of numericDates(question)) add(date.day);
  for (const [, year, month, day] of question.matchAll(ISO_DAY)) {
    const iso = `${year}-${pad(Number(month))}-${pad(Number(day))}`;
    add(isSupportedDay(iso) ? iso : undefined);
  }
  for (const [, day, month, year] of question.matchAll(DAY_MONTH))
    add(calendarDay(Number(day), monthIndex(month ?? ''), year, today));
  for (const [text, month, day, year] of question.matchAll(MONTH_DAY)) {
    // "may 20 of them": the verb, lower case with a bare number; "May 20", "may 20th" are days.
    if (month === 'may' && year === undefined && /\d$/.test(text)) continue;
    add(calendarDay(Number(day), monthIndex(month ?? ''), year, today));
  }
  for (const [, ordinal = 'first', month, year] of question.matchAll(WEEK_OF)) {
    if (year === undefined && month === undefined) continue; // "the first week of the trip"
    const index = month === undefined ? 1 : monthIndex(month);
    const thisYear = today.slice(0, 4);
    // Without a year, the latest such week that has begun by today.
    let week = weekOf(ordinal, index, year ?? thisYear);
    if (year === undefined && week && week.start > today)
      week = weekOf(ordinal, index, String(Number(thisYear) - 1).padStart(4, '0'));
    if (week) ranges.push(week);
  }
  return ranges;
}

/**
 * The days `question` pins, from the first to the last it names, read against `today`
 * (`YYYY-MM-DD`, for a date without a year); null when it pins none, or names days more than
 * a month apart.
 */
export function pinnedDays(question: string, today: string): DayRange | null {
  const ranges = rangesIn(question, today);
  if (ranges.length === 0) return null;
  const start = ranges.map((r) => r.start).sort()[0] as string;
  const end = ranges
    .map((r) => r.end)
    .sort()
    .at(-1) as string;
  return addDays(start, MAX_DAYS - 1) < end ? null : { start, end };
}
