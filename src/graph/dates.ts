/**
 * Dates as Engram stores them: the dates plugin's resolutions cut to UTC days, cleaned of the
 * times of day and durations it also reports, and widened where the words are vague ("two
 * weeks ago" is that week, not one exact day). The conventions are written down in
 * test/fixtures/extraction-sample.json, which measures them. A range that starts or ends
 * outside the supported days (calendar.ts: years 0001–9999), or that the plugin resolved to
 * something that is not a day ("6000 years ago" comes back as year -3977), is dropped. A dotted
 * date with the year last is read day first (numeric-dates.ts), where the plugin reads
 * `10.01.2024` as 1 October.
 */
import { grainOf, isSupportedDay, monthOf, weekOf, yearOf } from './calendar.js';
import type { ExtractedDate } from './extraction.js';
import type { LibraryDate } from './nlp.js';
import { resolveDatePhrase } from './nlp.js';
import { dottedDates } from './numeric-dates.js';

// A time of day or "now" on its own names no date ("for", "now", "to 10am", "morning meetings").
const NOT_A_DATE =
  /^(?:(?:at|to|for|from|in|on|by)\s+)*(?:now|for|morning|afternoon|evening|night|noon|midnight|\d{1,2}(?::\d\d)?\s*[ap]\.?m\.?)$/i;
// "by Friday", "until 8 January": the boundary day is the date the words are about.
const BOUNDARY = /^(?:until|till|by|before|after|since)\s+(.+)$/i;
// Counted weeks, months or years ("two weeks ago", "in 3 months") are vague to the day.
const COUNTED = /\b(?:\w+)\s+(weeks?|months?|years?)\b/i;

const clean = (text: string): string => text.replace(/^[\s"“'(]+|[\s"”'.,!?;:)]+$/gu, '');

function widen(text: string, start: string, end: string): [string, string] {
  if (start !== end) return [start, end];
  const unit = COUNTED.exec(text)?.[1]?.toLowerCase();
  if (unit?.startsWith('week')) return weekOf(start);
  if (unit?.startsWith('month')) return monthOf(start);
  if (unit?.startsWith('year')) return yearOf(start);
  return [start, end];
}

/** The plugin's timestamp cut to its day, when it is one Engram keeps (`-003977-03-13T…` is not). */
function dayOf(timestamp: string): string | undefined {
  const day = timestamp.slice(0, 10);
  return isSupportedDay(day) ? day : undefined;
}

function toDate(text: string, from: string, to: string): ExtractedDate | undefined {
  const [first, last] = [dayOf(from), dayOf(to)];
  if (first === undefined || last === undefined || first > last) return undefined;
  const [start, end] = widen(text, first, last);
  // Widening can step past the last supported day (the week of 9999-12-31 ends in 10000).
  if (!isSupportedDay(start) || !isSupportedDay(end)) return undefined;
  return { text, start, end, grain: grainOf(start, end) };
}

/**
 * The days the dotted dates of `phrase` name, day first ("10.01.2024", "from 10.01.2024 to
 * 15.01.2024"): from the first to the last; undefined when it holds none.
 */
function dottedRange(phrase: string): { start: string; end: string } | undefined {
  const days = dottedDates(phrase)
    .map((date) => date.day)
    .sort();
  const [first, last] = [days[0], days.at(-1)];
  return first === undefined || last === undefined ? undefined : { start: first, end: last };
}

/** The dates in `found`, resolved against `today` (`YYYY-MM-DD`), one per distinct range. */
export function normaliseDates(found: readonly LibraryDate[], today: string): ExtractedDate[] {
  const dates: ExtractedDate[] = [];
  for (const raw of found) {
    const text = clean(raw.text);
    if (!text || NOT_A_DATE.test(text)) continue;
    const boundary = BOUNDARY.exec(text)?.[1];
    // The plugin sometimes finds a phrase it cannot resolve in its sentence ("Two days ago I
    // ran ...") but can on its own; a boundary phrase is resolved on its own too.
    const phrase = boundary ?? text;
    const resolved = dottedRange(phrase) ?? (boundary || !raw.start ? resolveDatePhrase(phrase, today)[0] : raw);
    if (!resolved?.start || !resolved.end) continue;
    const date = toDate(phrase, resolved.start, resolved.end);
    if (!date) continue;
    if (!dates.some((seen) => seen.start === date.start && seen.end === date.end)) dates.push(date);
  }
  return dates;
}
