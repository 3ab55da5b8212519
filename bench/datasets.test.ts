/**
 * The dataset benchmarks end to end on tiny synthetic files in the LoCoMo and LongMemEval
 * formats, through `runBenchmark` with the real local model (a few dozen texts). The working
 * directory is a temporary one, so the on-disk embedding cache lands there.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BENCH_CACHE_FILE } from './embedding-cache.js';
import { runBenchmark } from './registry.js';

const LOCOMO = [
  {
    sample_id: 'conv-test',
    conversation: {
      speaker_a: 'Caroline',
      speaker_b: 'Melanie',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_1: [
        { speaker: 'Caroline', dia_id: 'D1:1', text: 'Hey Mel! How have you been lately?' },
        { speaker: 'Melanie', dia_id: 'D1:2', text: 'I went to Reykjavik for a ceramics workshop with my cousin.' },
        { speaker: 'Caroline', dia_id: 'D1:3', text: 'That sounds lovely, I have been busy at work.' },
      ],
      session_2_date_time: 'sometime in spring',
      session_2: [
        {
          speaker: 'Melanie',
          dia_id: 'D2:1',
          text: 'Look what we made!',
          img_url: ['https://example.com/pot.jpg'],
          blip_caption: 'a photo of a blue glazed bowl',
        },
        { speaker: 'Caroline', dia_id: 'D2:2', text: 'Wow, it is beautiful.' },
        { speaker: 'Melanie', dia_id: 'D2:3', text: 'Thanks, see you soon.' },
      ],
    },
    qa: [
      { question: 'Where did Melanie attend a ceramics workshop?', answer: 'Reykjavik', evidence: ['D1:2'], category: 4 },
      // malformed: a stray colon, a leading zero, two ids in one entry, one of them naming no turn
      { question: 'What did Melanie make?', answer: 'a bowl', evidence: ['D:2:01; D9:9'], category: 2 },
      { question: 'Is Melanie an artist?', answer: 'Likely yes', evidence: [], category: 3 },
    ],
    event_summary: {},
  },
];

const userTurn = (content: string) => ({ role: 'user', content });
const assistantTurn = (content: string) => ({ role: 'assistant', content });
/** A user turn the file marks as holding the answer. */
const answerTurn = (content: string) => ({ ...userTurn(content), has_answer: true });

const LONGMEMEVAL = [
  {
    question_id: 'q-sax',
    question_type: 'single-session-user',
    question: 'What is the name of my saxophone teacher?',
    answer: 'Bartholomew',
    question_date: '2023/05/30 (Tue) 21:08',
    haystack_session_ids: ['s1', 'answer_s2', 's3'],
    haystack_dates: ['2023/05/17 (Wed) 23:40', '2023/05/18 (Thu) 10:00', '2023/05/19 (Fri) 08:15'],
    haystack_sessions: [
      [userTurn('Can you suggest a recipe for lentil soup?'), assistantTurn('Sure: lentils, onion, cumin.')],
      [
        answerTurn('My saxophone teacher Bartholomew wants me to practise scales.'),
        assistantTurn('Scales build finger speed.'),
        userTurn('How long should I practise each day?'),
      ],
      [userTurn('What is the weather like in Lisbon in June?'), assistantTurn('Warm and sunny, around 25 degrees.')],
    ],
    answer_session_ids: ['answer_s2'],
  },
  {
    question_id: 'q-garden',
    question_type: 'single-session-user',
    question: 'Which vegetables did I plant in my garden this spring?',
    answer: 'Tomatoes and courgettes',
    question_date: '2023/06/02 (Fri) 09:00',
    haystack_session_ids: ['g1', 'answer_g2'],
    haystack_dates: ['2023/04/01 (Sat) 10:00', '2023/04/20 (Thu) 18:30'],
    haystack_sessions: [
      [userTurn('Please translate good morning into Italian.'), assistantTurn('Buongiorno.')],
      [answerTurn('This spring I planted tomatoes and courgettes in my garden.'), assistantTurn('Water them often.')],
    ],
    answer_session_ids: ['answer_g2'],
  },
  {
    question_id: 'q-sax_abs',
    question_type: 'single-session-user',
    question: 'What is the name of my violin teacher?',
    answer: 'You did not mention a violin teacher.',
    question_date: '2023/05/30 (Tue) 21:08',
    haystack_session_ids: ['s1'],
    haystack_dates: ['2023/05/17 (Wed) 23:40'],
    haystack_sessions: [[userTurn('Can you suggest a recipe for lentil soup?')]],
    answer_session_ids: [],
  },
];

interface MethodScores {
  overall: Record<string, number>;
  latencyMs: { mean: number; p50: number; p95: number };
}

describe('dataset benchmarks', () => {
  let dir: string;
  let cwd: string;
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  const run = (name: string, data: string | undefined) => runBenchmark(name, { count: 1, data, log: () => undefined });

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-datasets-'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores LoCoMo questions with repaired evidence and skips the one without any', async () => {
    const result = await run('locomo', write('locomo.json', LOCOMO));
    const json = result.json as {
      turnsIndexed: number;
      questions: { scored: number; skipped: number; skippedBecause: { noEvidence: number }; byCategory: Record<string, number> };
      evidence: { repaired: string[]; unresolved: string[] };
      methods: Record<
        string,
        MethodScores & {
          byCategory: Record<string, Record<string, number>>;
          byConversation: Record<string, Record<string, number>>;
        }
      >;
    };
    expect(json.turnsIndexed).toBe(6);
    expect(json.questions).toMatchObject({ scored: 2, skipped: 1, skippedBecause: { noEvidence: 1 } });
    expect(json.questions.byCategory).toEqual({ 'single-hop': 1, temporal: 1 });
    expect(json.evidence).toEqual({ repaired: ['conv-test D:2:01; D9:9'], unresolved: ['conv-test D9:9'] });
    expect(Object.keys(json.methods)).toEqual(['bm25', 'dense', 'keyword', 'hybrid', 'hybrid-rrf', 'graph']);
    for (const scores of Object.values(json.methods)) {
      expect(Object.keys(scores.overall).sort()).toEqual(
        ['recall@1', 'recall@5', 'recall@10', 'recall@25', 'hit@1', 'hit@5', 'hit@10', 'hit@25'].sort(),
      );
      // Every scored question is searched once per method and timed; with two timings the
      // nearest-rank p50 is the smaller, p95 the larger, and the mean lies halfway between.
      const { mean, p50, p95 } = scores.latencyMs;
      expect(Number.isFinite(p50) && Number.isFinite(p95)).toBe(true);
      expect(p50).toBeLessThanOrEqual(p95);
      expect(mean).toBe((p50 + p95) / 2);
    }
    expect(json.methods.bm25?.byCategory['single-hop']?.['recall@1']).toBe(1);
    expect(json.methods.dense?.overall['recall@25']).toBe(1);
    expect(result.table).toContain('recall@10 by category');
    expect(result.table).toContain('recall@10 by conversation');
    expect(Object.keys(json.methods.graph?.byConversation ?? {})).toEqual(['conv-test']);
    expect(existsSync(path.join(dir, BENCH_CACHE_FILE))).toBe(true);
  });

  it('ranks alike on every run', async () => {
    const data = write('locomo-again.json', LOCOMO);
    const scores = async () => {
      const json = (await run('locomo', data)).json as { methods: Record<string, { overall: unknown; byCategory: unknown }> };
      return Object.values(json.methods).map(({ overall, byCategory }) => ({ overall, byCategory }));
    };
    expect(await scores()).toEqual(await scores());
  });

  it('runs LongMemEval to the end when a haystack turn names a date before year 1 (stored, the date dropped)', async () => {
    const [first] = LONGMEMEVAL;
    const ancient = {
      ...first,
      question_id: 'q-writing',
      question: 'When did writing emerge, as I told you?',
      haystack_sessions: [
        [userTurn('I read that writing emerged about 5000 or 6000 years ago.'), assistantTurn('In Mesopotamia, yes.')],
        ...(first?.haystack_sessions.slice(1) ?? []),
      ],
    };
    const result = await run('longmemeval', write('longmemeval-ancient.json', [ancient]));
    expect((result.json as { questions: { scored: number } }).questions.scored).toBe(1);
  });

  it('runs the LongMemEval protocol on user turns and skips abstention questions', async () => {
    const result = await run('longmemeval', write('longmemeval.json', LONGMEMEVAL));
    const json = result.json as {
      questions: { scored: number; skipped: number; skippedBecause: { abstention: number }; byType: Record<string, number> };
      haystacks: { sessions: number; userTurnsIndexed: number };
      methods: Record<string, MethodScores>;
      calibration: Record<'evidence' | 'unrelated', { pairs: number; share: Record<string, number> }>;
    };
    expect(json.questions).toMatchObject({ scored: 2, skipped: 1, skippedBecause: { abstention: 1 } });
    expect(json.questions.byType).toEqual({ 'single-session-user': 2 });
    expect(json.haystacks).toMatchObject({ sessions: 5, userTurnsIndexed: 6 });
    expect(Object.keys(json.methods)).toEqual(['bm25', 'dense', 'keyword', 'hybrid', 'graph']);
    // the answer session's user turn shares the rare words, so it ranks first
    expect(json.methods.bm25?.overall).toMatchObject({ 'recall_any@5': 1, 'recall_all@5': 1, 'ndcg_any@5': 1, 'ndcg_any@10': 1 });
    expect(json.methods.dense?.overall['recall_all@10']).toBe(1);
    expect(result.table).toContain('recall_any@5 / recall_all@5 by question type');
    // Calibration: the two turns marked has_answer against their own questions, and every turn
    // of each haystack (4 and 2) against the other question.
    expect(json.calibration.evidence).toEqual({ pairs: 2, share: { '>=0.5': 1, '>=0.6': 1 } });
    expect(json.calibration.unrelated).toEqual({ pairs: 6, share: { '>=0.5': 0, '>=0.6': 0 } });
    expect(result.table).toContain('answer turns 100.0% >=0.5, 100.0% >=0.6 (2 pairs)');
  });

  it.each([
    ['locomo', 'missing.json', undefined, /cannot read LoCoMo file .*missing\.json: no such file/],
    ['longmemeval', 'missing.json', undefined, /cannot read LongMemEval file .*missing\.json: no such file/],
    ['locomo', 'broken.json', '{"qa": [', /broken\.json is not JSON/],
    [
      'locomo',
      'longmemeval-as-locomo.json',
      LONGMEMEVAL,
      /longmemeval-as-locomo\.json is not a LoCoMo file.*\[0\]\.conversation/,
    ],
    [
      'longmemeval',
      'locomo-as-longmemeval.json',
      LOCOMO,
      /locomo-as-longmemeval\.json is not a LongMemEval file.*\[0\]\.question_id/,
    ],
    ['locomo', 'empty.json', [], /empty\.json is not a LoCoMo file.*empty/],
    [
      'locomo',
      'bad-category.json',
      [{ ...LOCOMO[0], qa: [{ question: 'q', evidence: [], category: 'four' }] }],
      /bad-category\.json is not a LoCoMo file.*\[0\]\.qa\[0\]\.category/,
    ],
  ])('refuses a bad %s file (%s) with a clear error', async (name, file, content, message) => {
    const data = content === undefined ? path.join(dir, file) : write(file, content);
    await expect(run(name, data)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(message) });
  });

  it('asks for --data when no file is given', async () => {
    await expect(run('locomo', undefined)).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/--data/),
    });
  });
});
