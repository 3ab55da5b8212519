/**
 * The query side of extraction: the entities a question names, the dates it asks about
 * (resolved against `now`), and whether it asks for a time at all ("When did Maya move?"),
 * so graph-aware recall can follow the names and prefer memories with resolved dates.
 */
import { asksWhen } from './asks-when.js';
import { extractGraph } from './extract.js';
import type { ExtractedDate, ExtractedEntity } from './extraction.js';

/** What recall reads from a query. */
export interface QueryExtraction {
  /** The people, places, organisations and things the query names (all with role "mention"). */
  entities: ExtractedEntity[];
  /** Dates the query names, e.g. "last week" in "What did Maya do last week?". */
  dates: ExtractedDate[];
  /** Whether the query asks when something happened. */
  asksWhen: boolean;
}

/** Extracts what a recall query names, resolving relative dates against `now`. */
export function extractQuery({ text, now }: { text: string; now: Date | string }): QueryExtraction {
  const { entities, dates } = extractGraph({ text, occurredAt: now });
  return { entities, dates, asksWhen: asksWhen(text) };
}
