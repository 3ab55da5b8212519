/**
 * Dates written in numbers with the year last — `10.01.2024`, `10/01/2024` — read the way the
 * people who write them mean them. A dotted date is day first (`10.01.2024` is 10 January):
 * every convention that writes dots with the year last reads it so. A slashed date keeps the
 * dates plugin's reading, month first unless the first number cannot be a month
 * (`10/01/2024` is 1 October, `21/01/2024` 21 January). Plain text matching: recall reads
 * query dates with it (pinned-days.ts) and must not load the NLP library.
 */
import { isSupportedDay } from './calendar.js';

/** A dotted or slashed date with a four-digit year last (the separator the same twice). */
const NUMERIC_DATE = /(?<![\d./])(\d{1,2})([./])(\d{1,2})\2(\d{4})(?![\d/]|\.\d)/g;

/** One numeric date found in a text: the words and the day they name (`YYYY-MM-DD`). */
export interface NumericDate {
  text: string;
  day: string;
  separator: '.' | '/';
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The day `first`/`second`/`year` names under `separator`'s reading, or undefined when it is no real day. */
function dayOf(first: number, second: number, year: string, separator: '.' | '/'): string | undefined {
  const [day, month] = separator === '.' || first > 12 ? [first, second] : [second, first];
  const iso = `${year}-${pad(month)}-${pad(day)}`;
  return isSupportedDay(iso) ? iso : undefined;
}

/** Every numeric date with the year last in `text`, in order; ones that name no real day are left out. */
export function numericDates(text: string): NumericDate[] {
  const found: NumericDate[] = [];
  for (const match of text.matchAll(NUMERIC_DATE)) {
    const [whole, first, separator, second, year] = match as unknown as [string, string, '.' | '/', string, string];
    const day = dayOf(Number(first), Number(second), year, separator);
    if (day !== undefined) found.push({ text: whole, day, separator });
  }
  return found;
}

/** The dotted dates in `text` (day first), in order. */
export function dottedDates(text: string): NumericDate[] {
  return numericDates(text).filter((date) => date.separator === '.');
}
