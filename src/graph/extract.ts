/**
 * Offline extraction on write: a pure function from a memory's text, speaker and `occurredAt`
 * to the people, places, organisations and things it names, who said it, and the dates it
 * speaks of, resolved to calendar days. Reads only node_modules (compromise and its dates
 * plugin); needs no embedder and no network. Input is cut to a fixed length first, so time
 * is bounded however long the memory.
 */
import { utcDay } from './calendar.js';
import { normaliseDates } from './dates.js';
import { collectEntities, nameKey } from './entities.js';
import { type ExtractedEntity, type Extraction, type ExtractionInput, TALKS_ABOUT } from './extraction.js';
import { analyseText } from './nlp.js';
import { splitSpeaker } from './speaker.js';

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Only this much of a memory is parsed: a conversation turn is ~150 characters and parsing
 * costs ~1 ms per 150, so the cap keeps a 100 kB paste to ~15 ms.
 * @default 2000
 */
export const MAX_EXTRACTION_CHARS = 2_000;

// NUL and other control characters carry no words and confuse the tokenizer; line breaks and tabs stay.
const CONTROL = /[^\P{Cc}\t\n\r]/gu;

/** The input as the parser reads it: control characters gone, cut at a word boundary near the cap. */
export function prepareText(text: string, maxChars = MAX_EXTRACTION_CHARS): string {
  const cut = text.length > maxChars ? text.slice(0, maxChars).replace(/\s+\S*$/u, '') : text;
  return cut.replace(CONTROL, ' ');
}

/** Finds the entities, speaker, relations and dates of one memory. Deterministic; no I/O. */
export function extractGraph({ text, speaker, occurredAt }: ExtractionInput): Extraction {
  const split = splitSpeaker(prepareText(text), speaker);
  const today = utcDay(occurredAt);
  const analysis = analyseText(split.body, today ?? '1970-01-01');
  const entities: ExtractedEntity[] = [];
  const speakerKey = split.speaker ? nameKey(split.speaker) : undefined;
  if (split.speaker) entities.push({ name: split.speaker, type: 'person', role: 'speaker' });
  // A month or weekday the tagger called a name ("May 2") is part of a date, not an entity.
  const dateWords = new Set(analysis.dates.flatMap((date) => words(date.text)));
  for (const entity of collectEntities(analysis, split.body)) {
    if (nameKey(entity.name) === speakerKey || words(entity.name).every((word) => dateWords.has(word))) continue;
    entities.push({ ...entity, role: 'mention' });
  }
  const relations = split.speaker
    ? entities.filter((e) => e.role === 'mention').map((e) => ({ type: TALKS_ABOUT, from: split.speaker!, to: e.name }))
    : [];
  // Without a valid occurredAt a relative date cannot be resolved, so none is reported.
  const dates = today ? normaliseDates(analysis.dates, today) : [];
  return { entities, relations, dates };
}
