/**
 * Dates given on the command line (`--occurred-at`, `--after`, `--before`): ISO 8601 — a day
 * (`2026-01-31`, read as midnight UTC, as the library reads it) or a time (`2026-01-31T09:00:00Z`,
 * an offset such as `+01:00`, or none for local time) — or the words `today` and `yesterday`,
 * which stand for the local calendar's day exactly as if it had been typed. Checked here, so a
 * mistake names the flag and the accepted forms; anything else (`May 5`, `2026/01/31`, a day
 * past the month's end, which JavaScript would quietly roll over) is refused.
 */
import { InvalidInputError } from '../../index.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/i;

/** What a date flag accepts, for messages and help. */
export const DATE_FORMS = 'an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z, or today or yesterday';

/**
 * The date `raw` names, as the engine takes it (a day as `YYYY-MM-DD`, a time as an ISO string),
 * or undefined when the flag was not given.
 * @param flag the option as the user typed it, e.g. `--occurred-at`
 * @param now the current time, for `today` and `yesterday` @default new Date()
 */
export function dateOption(raw: string | undefined, flag: string, now: Date = new Date()): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  const word = value.toLowerCase();
  if (word === 'today') return localDay(now, 0);
  if (word === 'yesterday') return localDay(now, -1);
  const parts = DAY.exec(value) ?? TIME.exec(value);
  const [, year, month, day] = parts ?? [];
  if (!parts || !isCalendarDay(Number(year), Number(month), Number(day)) || Number.isNaN(new Date(value).getTime())) {
    throw new InvalidInputError(`${flag} is not a date: ${JSON.stringify(raw)}; give ${DATE_FORMS}`);
  }
  return DAY.test(value) ? value : new Date(value).toISOString();
}

/** The local calendar day `offset` days from `now`, as `YYYY-MM-DD`. */
function localDay(now: Date, offset: number): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
