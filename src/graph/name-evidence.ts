/**
 * Whether a run of capitalised words the tagger found reads as a name, or only looks like one.
 * A capital letter says nothing at the start of a sentence, in German, or on a month, a weekday,
 * the clock or a function word ("May", "Can", "Sonntag", "Uhr"), so a run needs evidence there:
 * the tagger's reading of its context, the lexicon knowing it as a name or place, a name's shape
 * (an acronym, an inner capital, a digit), or the word capitalised mid-sentence elsewhere.
 * Why: docs/decisions/entity-names.md
 */
import { foreignLanguageOf, isCalendarWord, isFunctionWord } from './common-words.js';
import type { TaggedTerm } from './nlp.js';
import { lexiconTags } from './nlp.js';

/** What the text as a whole tells about its capital letters. */
export interface NameContext {
  /** The other language the text is written in, if any (see `foreignLanguageOf`). */
  language: string | undefined;
  /** Lower-case words the text capitalises in the middle of a sentence. */
  capitalisedMidSentence: ReadonlySet<string>;
  /** Whether the tagger, reading the context, found this name (lower case) a person, place or organisation. */
  taggedAsName: (key: string) => boolean;
}

/** Lexicon tags that make a word a name, a place or an organisation. */
const NAME_TAGS = /Name$|^(?:Person|Place|City|Country|Region|Organization|SportsTeam)$/;
/** Lexicon tags of closed word classes: a word with one of them is no name on its own. */
const CLOSED_CLASS: ReadonlySet<string> = new Set([
  'Pronoun',
  'Determiner',
  'Conjunction',
  'Preposition',
  'Modal',
  'QuestionWord',
  'Expression',
  'Copula',
  'Auxiliary',
  'Negative',
]);
/** Lexicon tags of nouns, which may be names too ("Max", "Hope"). */
const NOUN_TAGS: ReadonlySet<string> = new Set(['Noun', 'Singular', 'Plural', 'Uncountable', 'ProperNoun']);

/** The context of `text`, whose capitalised runs are `runs`. */
export function nameContext(
  text: string,
  runs: readonly (readonly TaggedTerm[])[],
  taggedAsName: (key: string) => boolean,
): NameContext {
  const capitalisedMidSentence = new Set(
    runs.flatMap((run) => run.filter((term) => !term.sentenceStart).map((term) => term.text.toLowerCase())),
  );
  return { language: foreignLanguageOf(text), capitalisedMidSentence, taggedAsName };
}

/** An acronym, a word with a capital or digit inside ("GitHub", "iPhone", "R2D2"). */
const shapedLikeName = (word: string): boolean => /^\p{Lu}{2,}$|^.+\p{Lu}|\p{N}/u.test(word);

/** Whether the run `words` (its `terms`) reads as a name in `context`. */
export function readsAsName(words: readonly string[], terms: readonly TaggedTerm[], context: NameContext): boolean {
  const name = words.join(' ').toLowerCase();
  const tags = lexiconTags(name);
  const known = context.taggedAsName(name) || tags.some((tag) => NAME_TAGS.test(tag)) || words.some(shapedLikeName);
  if (known) return !(words.length === 1 && isCalendarWord(words[0] as string) && !shapedLikeName(words[0] as string));
  // German capitalises every noun: only evidence makes a name there.
  if (context.language === 'de') return false;
  if (words.length > 1) return true;
  const word = words[0] as string;
  if (isCalendarWord(word) || isFunctionWord(word) || tags.some((tag) => CLOSED_CLASS.has(tag))) return false;
  if (!terms[0]?.sentenceStart || context.capitalisedMidSentence.has(word.toLowerCase())) return true;
  // First in its sentence: in another language nothing vouches for it; in English, a word the
  // lexicon knows only as something other than a noun ("New", "Do", "Slow") is that word.
  return context.language === undefined && !(tags.length > 0 && !tags.some((tag) => NOUN_TAGS.has(tag)));
}
