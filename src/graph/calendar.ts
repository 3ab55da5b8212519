/**
 * Calendar arithmetic on UTC days written `YYYY-MM-DD`: the ranges resolved dates are widened
 * to (the Monday–Sunday week, the month, the year) and the grain a range has, and the range of
 * days Engram keeps at all: years 0001 to 9999, the four-digit years of ISO 8601 that
 * `YYYY-MM-DD` can hold and that sort as text. A date outside it ("6000 years ago", "in the
 * year 10000") is dropped by extraction, never an error.
 */
import type { DateGrain } from './extraction.js';

const DAY_MS = 86_400_000;

/** The first day a date may name. */
export const FIRST_DAY = '0001-01-01';
/** The last day a date may name. */
export const LAST_DAY = '9999-12-31';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `day` is a real calendar day written `YYYY-MM-DD`, from FIRST_DAY to LAST_DAY. */
export function isSupportedDay(day: string): boolean {
  const match = DAY.exec(day);
  if (!match || day < FIRST_DAY || day > LAST_DAY) return false;
  const date = parse(day);
  // A real day round-trips ("2023-02-31" does not).
  return Number.isFinite(date.getTime()) && date.getUTCDate() === Number(match[3]) && date.getUTCMonth() + 1 === Number(match[2]);
}

/** The UTC day of an instant, `YYYY-MM-DD`; undefined for an invalid date or one outside the supported years. */
export function utcDay(at: Date | string): string | undefined {
  const time = (typeof at === 'string' ? new Date(at) : at).getTime();
  if (!Number.isFinite(time)) return undefined;
  const day = format(new Date(time));
  return isSupportedDay(day) ? day : undefined;
}

const parse = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
/** `YYYY-MM-DD` of a date; a date past what Date can hold gives '' (never a supported day), not an exception. */
const format = (date: Date): string => (Number.isFinite(date.getTime()) ? date.toISOString().slice(0, 10) : '');

/** `day` moved by `days` (negative for earlier). */
export function addDays(day: string, days: number): string {
  return format(new Date(parse(day).getTime() + days * DAY_MS));
}

/** The Monday–Sunday week containing `day`. */
export function weekOf(day: string): [string, string] {
  const monday = addDays(day, -((parse(day).getUTCDay() + 6) % 7));
  return [monday, addDays(monday, 6)];
}

/** The calendar month containing `day`. */
export function monthOf(day: string): [string, string] {
  // Day 0 of the next month is this month's last (not Date.UTC, which reads years 0–99 as 19xx).
  const last = parse(day);
  last.setUTCMonth(last.getUTCMonth() + 1, 0);
  return [`${day.slice(0, 7)}-01`, format(last)];
}

/** The calendar year containing `day`. */
export function yearOf(day: string): [string, string] {
  return [`${day.slice(0, 4)}-01-01`, `${day.slice(0, 4)}-12-31`];
}

/** How wide the inclusive range `start`–`end` is, named when it is a whole calendar unit. */
export function grainOf(start: string, end: string): DateGrain {
  if (start === end) return 'day';
  const [monday, sunday] = weekOf(start);
  if (start === monday && end === sunday) return 'week';
  const [first, last] = monthOf(start);
  if (start === first && end === last) return 'month';
  const [january, december] = yearOf(start);
  if (start === january && end === december) return 'year';
  const month = Number(start.slice(5, 7));
  if (
    start.endsWith('-01') &&
    month % 3 === 1 &&
    end === monthOf(`${start.slice(0, 5)}${String(month + 2).padStart(2, '0')}-01`)[1]
  ) {
    return 'quarter';
  }
  return 'range';
}
