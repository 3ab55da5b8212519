/**
 * Calendar arithmetic on UTC days written `YYYY-MM-DD`: the ranges resolved dates are widened
 * to (the Monday–Sunday week, the month, the year) and the grain a range has.
 */
import type { DateGrain } from './extraction.js';

const DAY_MS = 86_400_000;

/** The UTC day of an instant, `YYYY-MM-DD`; undefined for an invalid date. */
export function utcDay(at: Date | string): string | undefined {
  const time = (typeof at === 'string' ? new Date(at) : at).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : undefined;
}

const parse = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
const format = (date: Date): string => date.toISOString().slice(0, 10);

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
  const date = parse(day);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
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
