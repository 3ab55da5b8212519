/**
 * The one typed adapter over compromise and its dates plugin (MIT, read from node_modules; no
 * model is fetched). Everything else in graph/ sees plain strings and tags from here, so the
 * library's loose types (`world(): object`, `plugin(): any`) stop at this file. To run on every
 * write, its pattern compiler is memoised and the dates pass and post-tagger are out of the
 * default pipeline, for the whole process (compromise keeps one global world).
 * Why: docs/decisions/compromise-on-every-write.md
 */
import { createRequire } from 'node:module';

import type compromise from 'compromise';
import type compromiseDates from 'compromise-dates';
import type { DateJSON, DateOptions } from 'compromise-dates';

// The packages' single-file builds (their `require` entries): the ES module entries are about
// 600 files, and loading them cost every `engram add` process about 350 ms more CPU.
const requireBuild = createRequire(import.meta.url);
const nlp = requireBuild('compromise') as typeof compromise;
const datesPlugin = requireBuild('compromise-dates') as typeof compromiseDates;

/** One word as the tagger saw it. */
export interface TaggedTerm {
  text: string;
  tags: string[];
  /** Whether it is the first word of its sentence, where a capital letter says nothing. */
  sentenceStart: boolean;
}

/** A date phrase as the dates plugin found it, with its range in UTC timestamps when it could resolve it. */
export interface LibraryDate {
  text: string;
  start: string | undefined;
  end: string | undefined;
  unit: string | undefined;
}

/** What the parser found in one text. */
export interface TextAnalysis {
  /** Runs of adjacent proper nouns and acronyms, word by word. */
  properNouns: TaggedTerm[][];
  people: string[];
  places: string[];
  organizations: string[];
  dates: LibraryDate[];
}

type ParseMatch = (pattern: unknown, options: unknown, world: unknown) => unknown;
interface World {
  hooks: string[];
  methods: { one: { parseMatch: ParseMatch } };
  model: { one: { lexicon: Record<string, string | string[] | undefined> } };
}
interface JsonPhrase {
  text: string;
  terms: { text: string; tags: string[]; index?: [number, number] }[];
}
interface DatePhrase {
  text: string;
  dates?: DateJSON;
}
type Doc = ReturnType<typeof nlp>;
interface DatesDoc {
  dates(options: DateOptions): { json(): DatePhrase[] };
}

nlp.plugin(datesPlugin);
const world = nlp.world() as World;
world.hooks = world.hooks.filter((hook) => hook !== 'dates' && hook !== 'postTagger');
const compileMatch = world.methods.one.parseMatch;
const compiled = new Map<string, unknown>();
world.methods.one.parseMatch = (pattern, options, w) => {
  // Only plain string patterns without options are shared; compiled patterns are read-only.
  if (typeof pattern !== 'string' || (options && Object.keys(options).length > 0)) return compileMatch(pattern, options, w);
  let regs = compiled.get(pattern);
  if (regs === undefined) {
    regs = compileMatch(pattern, options, w);
    compiled.set(pattern, regs);
  }
  return regs;
};

const DAY_OF_MONTH = /\b\d{1,2}(?:st|nd|rd|th)\b/i;

/** Days in one of each unit a count of time can be given in, at most (a month of 31, a year of 366). */
const UNIT_DAYS: Readonly<Record<string, number>> = {
  second: 1 / 86_400,
  sec: 1 / 86_400,
  minute: 1 / 1_440,
  min: 1 / 1_440,
  hour: 1 / 24,
  day: 1,
  week: 7,
  wk: 7,
  weekend: 7,
  fortnight: 14,
  month: 31,
  quarter: 92,
  season: 92,
  year: 366,
  decade: 3_660,
  century: 36_600,
  centurie: 36_600,
  millennium: 366_000,
  millennia: 366_000,
};
/**
 * Ten thousand years, in days: a count of time reaching further than this from any day of years
 * 0001–9999 lands on none of them (calendar.ts), so it is never a date Engram keeps.
 */
const FARTHEST_DAYS = 3_660_000;

/**
 * The counts of time in `doc` ("99999999999 days") that reach past every supported day. The
 * dates plugin steps through a count of days month by month, so one such phrase would hold a
 * write for minutes; they are taken out before it runs (they could name no kept date anyway).
 */
function farCounts(doc: Doc): Doc {
  return doc.match('#Value+ #Duration').filter((view) => {
    const phrase = view as Doc;
    const count = (phrase.numbers().get() as unknown[])[0];
    const unit = phrase.match('#Duration').text('normal').replace(/s$/, '');
    const days = UNIT_DAYS[unit] ?? 1;
    return typeof count === 'number' && !(Math.abs(count) * days <= FARTHEST_DAYS);
  }) as Doc;
}

const texts = (view: { json(): unknown }): string[] => (view.json() as JsonPhrase[]).map((phrase) => phrase.text);

function resolveDates(whole: Doc, today: string): LibraryDate[] {
  // Only the sentences with a date word go through the dates pass: its cost grows with length.
  const dated = whole.if('#Date');
  let doc = (dated.found ? dated : whole) as Doc;
  const far = farCounts(doc);
  if (far.found) doc = doc.not(far) as Doc;
  doc.compute('dates');
  const found = (doc as unknown as DatesDoc).dates({ today, timezone: 'UTC' }).json();
  const dates: LibraryDate[] = [];
  for (const { text, dates: range } of found) {
    dates.push({ text, start: range?.start ?? undefined, end: range?.end ?? undefined, unit: range?.unit });
  }
  return dates;
}

/** Parses `text`: proper-noun runs, people, places, organisations, and dates resolved against `today` (`YYYY-MM-DD`). */
export function analyseText(text: string, today: string): TextAnalysis {
  const doc = nlp(text);
  return {
    properNouns: (doc.match('(#ProperNoun|#Acronym)+').json() as JsonPhrase[]).map((phrase) =>
      phrase.terms.map((term) => ({ text: term.text, tags: term.tags, sentenceStart: term.index?.[1] === 0 })),
    ),
    people: texts(doc.people()),
    places: texts(doc.places()),
    organizations: texts(doc.organizations()),
    // The dates pass is the costly part: run it only where the tagger saw a date word (or a
    // day of the month, "the 14th", which it does not tag).
    dates: doc.has('#Date') || DAY_OF_MONTH.test(text) ? resolveDates(doc, today) : [],
  };
}

/** Resolves one date phrase on its own (e.g. "next Friday" cut out of "by next Friday"). */
export function resolveDatePhrase(phrase: string, today: string): LibraryDate[] {
  return resolveDates(nlp(phrase), today);
}

/** The lexicon's tag(s) for a lower-case word, e.g. "paul" → "MaleName". */
export function lexiconTags(word: string): string[] {
  const tags = world.model.one.lexicon[word.toLowerCase()];
  return tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
}
