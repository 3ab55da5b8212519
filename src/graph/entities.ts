/**
 * Named entities from the parser's output: each run of proper nouns becomes one entity, named
 * as written (possessive and title cut off, the titled form kept as an alias) and typed from
 * the parser's people, places and organisations. Precision comes first, because recall follows
 * these names: kinship words ("Dad"), months, weekdays, demonyms, contractions ("I've") and
 * words that only look like names (name-evidence.ts) are dropped, and a name that only contains
 * a person's or place's name ("Tate Modern") is a thing. Why: docs/decisions/entity-names.md
 */
import type { EntityType } from './extraction.js';
import { nameContext, readsAsName } from './name-evidence.js';
import type { TaggedTerm, TextAnalysis } from './nlp.js';
import { lexiconTags } from './nlp.js';

/** An entity a text names, before the speaker is set apart. */
export interface NamedEntity {
  name: string;
  type: EntityType;
  aliases?: string[];
}

const has = (term: TaggedTerm, ...tags: string[]): boolean => tags.some((tag) => term.tags.includes(tag));
const stripPossessive = (word: string): string => word.replace(/(?:['’]s|(?<=s)['’])$/u, '');
/** The key two spellings of one name share: lower case, no possessive, no title, single spaces. */
export const nameKey = (name: string): string => stripPossessive(name.trim()).toLowerCase().replace(/\s+/g, ' ');

/** A pronoun with its verb ("I've", "I'd"), which the tagger sometimes calls a proper noun. */
const PRONOUN_CONTRACTION = /^(?:i|you|we|they|he|she|it)['’](?:m|ve|d|ll|re|s)$/i;

function cleanRun(terms: readonly TaggedTerm[]): { words: string[]; title: string | undefined } | undefined {
  let run = terms.filter((term) => !has(term, 'Date', 'Month', 'WeekDay') && !PRONOUN_CONTRACTION.test(term.text.trim()));
  // Kinship and role words lead a name ("my brother Paul", "Grandma Rosa") but are not one.
  while (run.length > 0 && has(run[0]!, 'Actor') && !has(run[0]!, 'FirstName', 'LastName')) run = run.slice(1);
  let title: string | undefined;
  if (run.length > 1 && has(run[0]!, 'Honorific')) {
    title = run[0]!.text.replace(/\.?$/, '.');
    run = run.slice(1);
  }
  const words = run.map((term) => stripPossessive(term.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’&.-]+$/gu, '')));
  if (words.length === 0 || words.some((word) => !word)) return undefined;
  // As written: a name starts with a capital or a digit; the tagger sometimes calls "thai" proper.
  if (!/^[\p{Lu}\p{N}]/u.test(words[0]!)) return undefined;
  if (run.every((term) => has(term, 'Demonym'))) return undefined;
  return { words, title };
}

function typeOf(name: string, terms: readonly TaggedTerm[], analysis: TextAnalysis): EntityType {
  const key = nameKey(name);
  const spans: [EntityType, string[]][] = [
    ['person', analysis.people],
    ['place', analysis.places],
    ['organization', analysis.organizations],
  ];
  const keyed = spans.map(([type, texts]) => [type, texts.map((text) => nameKey(text.replace(/[^\p{L}\p{N}]+$/u, '')))] as const);
  for (const [type, keys] of keyed) if (keys.some((span) => span === key || span.endsWith(` ${key}`))) return type;
  if (terms.length === 1 && lexiconTags(key).some((tag) => tag.endsWith('Name') && tag !== 'LastName')) return 'person';
  // A longer name around a person's or place's name names something else.
  if (keyed.some(([, keys]) => keys.some((span) => span && ` ${key} `.includes(` ${span} `)))) return 'thing';
  if (terms.some((term) => has(term, 'Place', 'Country', 'City', 'Region'))) return 'place';
  if (terms.some((term) => has(term, 'Organization'))) return 'organization';
  if (terms.some((term) => has(term, 'Person', 'FirstName', 'LastName'))) return 'person';
  return 'thing';
}

/** The entities `analysis` of `text` names, once each, in order of appearance. */
export function collectEntities(analysis: TextAnalysis, text: string): NamedEntity[] {
  const entities: NamedEntity[] = [];
  const seen = new Set<string>();
  const tagged = new Set(
    [...analysis.people, ...analysis.places, ...analysis.organizations].map((span) =>
      nameKey(span.replace(/[^\p{L}\p{N}]+$/u, '')),
    ),
  );
  const context = nameContext(text, analysis.properNouns, (key) => tagged.has(key));
  for (const terms of analysis.properNouns) {
    const run = cleanRun(terms);
    if (!run || !readsAsName(run.words, terms, context)) continue;
    const name = run.words.join(' ');
    const key = nameKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    const type = typeOf(name, terms, analysis);
    entities.push(run.title ? { name, type, aliases: [`${run.title} ${name}`] } : { name, type });
  }
  return entities;
}
