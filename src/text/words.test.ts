import { describe, expect, it } from 'vitest';

import { renderFtsParts } from '../store/sqlite/fts-query.js';
import { segmentTerms } from './index-terms.js';
import { parseLexicalQuery } from './lexical-query.js';
import { hasSegmentedWords, indexTerm, isSegmentWord } from './segmented-words.js';
import { contentWords, words } from './words.js';

describe('words', () => {
  it('splits English into lower-case runs of letters and digits, as before', () => {
    expect(words('Caroline’s LGBTQ group met on 2023-05-07 — café, naïve!')).toEqual([
      'caroline',
      's',
      'lgbtq',
      'group',
      'met',
      'on',
      '2023',
      '05',
      '07',
      'café',
      'naïve',
    ]);
  });

  const cases: [string, string, string[]][] = [
    ['a Japanese run as overlapping bigrams', '日本語', ['日本', '本語']],
    ['a lone character as itself', '猫', ['猫']],
    ['CJK punctuation between runs', '猫、犬。', ['猫', '犬']],
    ['Katakana with its prolonged sound mark', 'ユーザー', ['ユー', 'ーザ', 'ザー']],
    ['Korean words, each run on its own', '한국어 답변', ['한국', '국어', '답변']],
    ['Chinese next to Latin letters', '北京office', ['北京', 'office']],
    ['a Han character outside the Basic Multilingual Plane', '𠮷野家', ['𠮷野', '野家']],
    ['each emoji as a word', 'launch 🚀🔥 day', ['launch', '🚀', '🔥', 'day']],
    ['a flag as one word', '🇯🇵 trip', ['🇯🇵', 'trip']],
    ['a family as its people, without the joiners', '👨‍👩‍👧', ['👨', '👩', '👧']],
    ['a skin tone left out', '👍🏽', ['👍']],
  ];

  it.each(cases)('reads %s', (_label, text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it('drops no CJK word as a stop word', () => {
    expect(contentWords('天気はどうですか')).toEqual(['天気', '気は', 'はど', 'どう', 'うで', 'です', 'すか']);
  });
});

describe('telling text with CJK characters or emoji apart', () => {
  it('misses no character of the scripts read as bigrams and no pictograph, however it tests first', () => {
    // Their letters and digits (their punctuation and marks split no differently either way).
    const exact =
      /(?=[\p{L}\p{N}])[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]|\p{Regional_Indicator}|\p{Extended_Pictographic}/u;
    const missed: string[] = [];
    for (let code = 0; code <= 0x3ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (exact.test(char) && !hasSegmentedWords(`a ${char} b`)) missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
  });
});

describe('the full-text index form of CJK words and emoji', () => {
  it('tells CJK bigrams, lone characters and emoji from other words', () => {
    expect(['日本', '猫', '🚀', '🇯🇵'].map(isSegmentWord)).toEqual([true, true, true, true]);
    expect(['tea', '2023', 'café', 'ユーザー'].map(isSegmentWord)).toEqual([false, false, false, false]);
  });

  it('spells an emoji in letters and digits, and leaves other words as they are', () => {
    expect(indexTerm('🚀')).toBe('emoji128640');
    expect(indexTerm('🇯🇵')).toBe('emoji127471x127477');
    expect(indexTerm('日本')).toBe('日本');
    expect(indexTerm('tea')).toBe('tea');
  });

  it('lists the segment terms of every field in order, and none for English text', () => {
    expect(segmentTerms(['Emoji test 🚀', null, '["日本"]', '東京'])).toEqual(['emoji128640', '日本', '東京']);
    expect(segmentTerms(['Plain English — with “quotes” and dashes', 'an abstract', '["tag"]', null])).toEqual([]);
  });

  it('reads every character of a long field, past the words a query is read for', () => {
    expect(segmentTerms([`${'word '.repeat(2_000)}🚀`])).toEqual(['emoji128640']);
  });

  it('renders CJK and emoji query words in the form the index holds them', () => {
    expect(renderFtsParts(parseLexicalQuery('🚀 日本語 "日本語で" launch') ?? { terms: [], phrases: [], prefixes: [] })).toEqual([
      '"日本 本語 語で"',
      '"emoji128640"',
      '"日本"',
      '"本語"',
      '"launch"',
    ]);
  });
});
