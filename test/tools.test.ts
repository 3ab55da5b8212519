/**
 * The memory tools' contracts (seed 003, seed 000's think) against a real SQLite file, called
 * the way a model calls them: through `execute` with plain JSON arguments.
 */
import { describe, expect, it } from 'vitest';

import { createMemoryTools, type MemoryTool, SCRATCHPAD_KEY, SESSION_HANDOFF_KEY } from '../src/entries/tools.js';
import { type Engram, manualClock } from '../src/index.js';
import { openTestEngram, rejection, snapshot } from './tools-helpers.js';

function toolsOf(engram: Engram, options: { sessionId?: string; scope?: string; scopes?: string[] } = {}) {
  const tools = createMemoryTools({ engram, sessionId: options.sessionId ?? 'session-1', ...options });
  const call = (name: string, args: unknown) => (tools.find((tool) => tool.name === name) as MemoryTool).execute(args);
  return { tools, call };
}

describe('search_memory', () => {
  it('rejects an empty query with a message saying what to do', async () => {
    const { call } = toolsOf(await openTestEngram());
    const error = await rejection(call('search_memory', { query: '   ' }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe('search_memory: query is empty: say what to search for');
    expect((await rejection(call('search_memory', {}))).message).toBe('search_memory: query is required: say what to search for');
  });

  it('clamps the limit to 1–50: 0 gives one result and 500 gives fifty', async () => {
    const clock = manualClock('2026-03-02T10:00:00.000Z');
    const engram = await openTestEngram({ clock });
    await engram.rememberMany(Array.from({ length: 60 }, (_, i) => `deploy checklist item ${i}: run the deploy script`));
    const { call } = toolsOf(engram);
    const count = async (limit: number) => {
      clock.advance(86_400_000); // a day later: the cooldown from the previous search has passed
      return ((await call('search_memory', { query: 'deploy', limit })) as { count: number }).count;
    };
    expect(await count(0)).toBe(1);
    expect(await count(-3)).toBe(1);
    expect(await count(500)).toBe(50);
    expect(await count(7)).toBe(7);
  });

  it('applies the retrieval cooldown: what was just found ranks below what was not (seed 001)', async () => {
    const engram = await openTestEngram();
    const first = await engram.remember('The deploy runs on Tuesdays');
    const second = await engram.remember('The deploy runs on Tuesdays at noon');
    const { call } = toolsOf(engram);
    const ids = async () =>
      ((await call('search_memory', { query: 'deploy Tuesdays', limit: 1 })) as { results: { id: string }[] }).results.map(
        (hit) => hit.id,
      );
    const top = await ids();
    expect(await ids()).toEqual([top[0] === first.id ? second.id : first.id]);
  });

  it('says how the knowledge graph reached an entry, and only then', async () => {
    const engram = await openTestEngram();
    await engram.remember({ text: 'Caroline said, "I joined a hiking club."', kind: 'episode' });
    await engram.remember({ text: 'The hiking club walks every Sunday.' });
    const { call } = toolsOf(engram);
    const { results } = (await call('search_memory', { query: 'What club did Caroline join?' })) as {
      results: { text: string; via?: string }[];
    };
    expect(results.map((result) => [result.text, result.via])).toEqual([
      ['Caroline said, "I joined a hiking club."', 'Caroline'],
      ['The hiking club walks every Sunday.', undefined],
    ]);
    expect('via' in (results[1] as object)).toBe(false);
  });

  it('returns ranked entries with id, kind, date and score, filtered by kind, tier and scope', async () => {
    const engram = await openTestEngram();
    const decision = await engram.remember({ text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must' });
    await engram.remember({ text: 'PostgreSQL upgrade notes', kind: 'note', scope: 'project:x' });
    const { call } = toolsOf(engram);
    const result = (await call('search_memory', { query: 'PostgreSQL billing', kinds: ['decision'], tiers: ['must'] })) as {
      results: { id: string; kind: string; date: string; score: number; text: string }[];
    };
    expect(result.results).toEqual([
      expect.objectContaining({
        id: decision.id,
        kind: 'decision',
        tier: 'must',
        date: decision.occurredAt,
        text: decision.text,
      }),
    ]);
    expect(result.results[0]?.score).toBeGreaterThan(0);
    const scoped = (await call('search_memory', { query: 'PostgreSQL', scopes: ['project:x'] })) as {
      results: { scope: string }[];
    };
    expect(scoped.results.map((hit) => hit.scope)).toEqual(['project:x']);
  });

  it('refuses a scope the tools may not see', async () => {
    const { call } = toolsOf(await openTestEngram(), { scope: 'user:alice', scopes: ['user:alice', 'global'] });
    expect((await rejection(call('search_memory', { query: 'x', scopes: ['user:bob'] }))).message).toBe(
      'scope user:bob is not visible here: choose from user:alice, global',
    );
  });
});

describe('write_memory', () => {
  it('replaces a keyed note by default and appends on a new line with mode append', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram);
    await call('write_memory', { key: 'deploy-steps', content: 'Build the image.' });
    expect((await engram.getByKey('deploy-steps'))?.text).toBe('Build the image.');
    await call('write_memory', { key: 'deploy-steps', content: 'Push it to the registry.', mode: 'append' });
    expect((await engram.getByKey('deploy-steps'))?.text).toBe('Build the image.\nPush it to the registry.');
    const replaced = (await call('write_memory', { key: 'deploy-steps', content: 'Run make deploy.', mode: 'replace' })) as {
      id: string;
      created: boolean;
    };
    const note = await engram.getByKey('deploy-steps');
    expect(note).toMatchObject({
      id: replaced.id,
      text: 'Run make deploy.',
      kind: 'note',
      sessionId: 'session-1',
      source: 'agent',
    });
    expect(replaced.created).toBe(false);
    // The replaced versions are kept, marked superseded.
    const versions = (await snapshot(engram)).memories as { key: string; supersededBy: string | null }[];
    expect(versions.filter((memory) => memory.key === 'deploy-steps').map((memory) => memory.supersededBy !== null)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('appending to a note that does not exist creates it', async () => {
    const engram = await openTestEngram();
    await toolsOf(engram).call('write_memory', { key: 'todo', content: 'Renew the certificate', mode: 'append' });
    expect((await engram.getByKey('todo'))?.text).toBe('Renew the certificate');
  });

  it('appends one line to the daily activity log per successful write, and none for a refused one', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram);
    await call('write_memory', { key: 'a', content: 'first' });
    await call('write_memory', { key: 'a', content: 'second', mode: 'append' });
    await call('write_memory', { key: 'b', content: 'other note' });
    await rejection(call('write_memory', { key: 'b', content: '' }));
    const log = await engram.activity({ day: '2026-03-02' });
    expect(log.map((line) => [line.action, line.key, line.summary])).toEqual([
      ['write_memory', 'a', 'created a: first'],
      ['write_memory', 'a', 'appended to a: second'],
      ['write_memory', 'b', 'created b: other note'],
    ]);
    expect(log[2]?.memoryId).toBe((await engram.getByKey('b'))?.id);
  });

  it('keeps the reserved keys for their own tools', async () => {
    const { call } = toolsOf(await openTestEngram());
    expect((await rejection(call('write_memory', { key: SESSION_HANDOFF_KEY, content: 'x' }))).message).toBe(
      'key session-handoff is reserved: use write_session_handoff to write it',
    );
    expect((await rejection(call('write_memory', { key: SCRATCHPAD_KEY, content: 'x' }))).message).toBe(
      'key scratchpad is reserved: use scratch_note to write it',
    );
    expect((await rejection(call('write_memory', { key: 'working_set:global', content: 'x' }))).message).toBe(
      'key working_set:global is reserved: Engram keeps the working set itself: choose another key',
    );
  });

  it('refuses an append that would push the note past the cap, changing nothing', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram);
    for (const size of [20_000, 20_000, 20_000, 20_000, 19_990]) {
      await call('write_memory', { key: 'big', content: 'x'.repeat(size), mode: 'append' });
    }
    expect((await engram.getByKey('big'))?.text).toHaveLength(99_994);
    const before = await snapshot(engram);
    const error = await rejection(call('write_memory', { key: 'big', content: 'one more line', mode: 'append' }));
    expect(error.message).toBe(
      'the note big would be 100008 characters after appending, over the cap of 100000: replace it with a shorter summary instead',
    );
    expect(await snapshot(engram)).toEqual(before);
  });
});

describe('write_session_handoff', () => {
  it('always overwrites the one handoff note, under the fixed key', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram, { scope: 'project:x' });
    await call('write_session_handoff', { content: 'Migrations half done.' });
    const second = (await call('write_session_handoff', { content: 'Migrations done; deploy next.' })) as { replaced: boolean };
    expect(second.replaced).toBe(true);
    const note = await engram.getByKey(SESSION_HANDOFF_KEY, 'project:x');
    expect(note).toMatchObject({ text: 'Migrations done; deploy next.', kind: 'handoff', scope: 'project:x' });
    const live = await engram.list({ kinds: ['handoff'] });
    expect(live.map((memory) => memory.text)).toEqual(['Migrations done; deploy next.']);
    expect((await engram.activity()).map((line) => line.action)).toEqual(['write_session_handoff', 'write_session_handoff']);
  });
});

describe('scratch_note', () => {
  it('replaces, appends, reads and clears the scratchpad', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram);
    expect(await call('scratch_note', { mode: 'read' })).toMatchObject({
      text: '',
      id: null,
      message: 'The scratchpad is empty.',
    });
    await call('scratch_note', { mode: 'replace', content: 'Plan: 1. parse' });
    await call('scratch_note', { mode: 'append', content: '2. validate' });
    expect(await call('scratch_note', { mode: 'read' })).toMatchObject({ text: 'Plan: 1. parse\n2. validate' });
    expect((await engram.getByKey(SCRATCHPAD_KEY))?.kind).toBe('scratchpad');
    await call('scratch_note', { mode: 'replace', content: 'Plan B' });
    expect(await call('scratch_note', { mode: 'read' })).toMatchObject({ text: 'Plan B' });
  });

  it('clear leaves it empty: no live scratchpad, so nothing of it reaches context or search', async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram);
    await call('scratch_note', { mode: 'replace', content: 'temporary zebra plan' });
    expect(await call('scratch_note', { mode: 'clear' })).toMatchObject({
      mode: 'clear',
      text: '',
      message: 'Scratchpad cleared.',
    });
    expect(await engram.getByKey(SCRATCHPAD_KEY)).toBeNull();
    expect(await call('scratch_note', { mode: 'read' })).toMatchObject({ text: '' });
    expect(await engram.search('zebra')).toEqual([]);
    expect(await engram.list({ kinds: ['scratchpad'] })).toEqual([]);
    // Writing again after a clear starts a fresh scratchpad.
    await call('scratch_note', { mode: 'append', content: 'new task' });
    expect(await call('scratch_note', { mode: 'read' })).toMatchObject({ text: 'new task' });
  });

  it('says which modes need content', async () => {
    const { call } = toolsOf(await openTestEngram());
    expect((await rejection(call('scratch_note', { mode: 'append' }))).message).toBe(
      'scratch_note: content is required with mode append: give the text to write',
    );
    expect((await rejection(call('scratch_note', { mode: 'clear', content: 'x' }))).message).toBe(
      'scratch_note: content is not used with mode clear: use mode replace to set new text',
    );
    expect((await rejection(call('scratch_note', { content: 'x' }))).message).toBe(
      'scratch_note: mode must be one of: replace, append, clear, read',
    );
  });
});

describe('think', () => {
  it("stores a thought with the session's id and answers with a short confirmation", async () => {
    const engram = await openTestEngram();
    const { call } = toolsOf(engram, { sessionId: 'chat-7', scope: 'user:alice' });
    const result = (await call('think', { thought: 'The user wants CSV, not JSON; parse first, then validate.' })) as {
      id: string;
      message: string;
    };
    expect(result.message).toBe('Thought recorded.');
    expect(await engram.get(result.id)).toMatchObject({
      kind: 'thought',
      sessionId: 'chat-7',
      scope: 'user:alice',
      source: 'agent',
      text: 'The user wants CSV, not JSON; parse first, then validate.',
    });
  });
});

describe('malformed arguments', () => {
  const MALFORMED: [tool: string, args: unknown, message: RegExp][] = [
    ['search_memory', { query: 42 }, /query must be a string/],
    ['search_memory', { query: 'x', limit: 'ten' }, /limit must be a number/],
    ['search_memory', { query: 'x', kinds: ['gossip'] }, /kinds\.0: kind must be one of: fact/],
    ['search_memory', { query: 'x'.repeat(1001) }, /query is longer than 1000 characters/],
    ['search_memory', { query: 'x', colour: 'red' }, /unknown field colour/],
    ['search_memory', 'deploy', /search_memory takes a JSON object of arguments \(got a string\)/],
    ['write_memory', { content: 'x' }, /key is required/],
    ['write_memory', { key: 'k', content: 'x', mode: 'prepend' }, /mode must be one of: replace, append/],
    ['write_memory', { key: 'k', content: 'x'.repeat(20_001) }, /content is longer than 20000 characters/],
    ['write_memory', { key: 'k'.repeat(201), content: 'x' }, /key is longer than 200 characters/],
    ['write_session_handoff', { content: ['a list'] }, /content must be a string/],
    ['write_session_handoff', { content: 'x'.repeat(20_001) }, /content is longer than 20000 characters/],
    ['scratch_note', { mode: 'replace', content: 7 }, /content must be a string/],
    ['scratch_note', { mode: 'append', content: 'x'.repeat(20_001) }, /content is longer than 20000 characters/],
    ['think', {}, /thought is required/],
    ['think', { thought: 'x'.repeat(10_001) }, /thought is longer than 10000 characters/],
    ['store_solution', { goal: 'g', approach: 'a', outcome: 'o' }, /confidence must be a number from 0 to 100/],
    ['store_solution', { goal: 'g', approach: 'a', outcome: 'o', confidence: 101 }, /confidence must be from 0 to 100/],
    ['store_solution', { goal: 'g', approach: 'a', outcome: 'o', confidence: 50, status: 'meh' }, /status must be one of/],
    ['store_solution', { goal: 'x'.repeat(1001), approach: 'a', outcome: 'o', confidence: 5 }, /goal is longer than 1000/],
    ['recall_solution', { goal: '' }, /goal is empty/],
    ['recall_solution', { goal: 'g', similarity: 'vibes' }, /similarity must be one of: keyword, semantic, hybrid/],
    ['recall_solution', null, /recall_solution takes a JSON object of arguments \(got null\)/],
  ];

  const cases = MALFORMED.map(([name, args, message]) => ({ name, args, message, shown: JSON.stringify(args)?.slice(0, 60) }));

  it.each(cases)(
    '$name rejects $shown with an error the model can act on, and changes nothing',
    async ({ name, args, message }) => {
      const engram = await openTestEngram();
      const { call } = toolsOf(engram);
      await call('write_memory', { key: 'existing', content: 'kept as it is' });
      await call('scratch_note', { mode: 'replace', content: 'scratch kept' });
      const before = await snapshot(engram);
      const error = await rejection(call(name, args));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(message);
      expect(await snapshot(engram)).toEqual(before);
    },
  );

  it('covers every tool', () => {
    expect(new Set(MALFORMED.map(([name]) => name))).toEqual(
      new Set([
        'search_memory',
        'write_memory',
        'write_session_handoff',
        'scratch_note',
        'think',
        'store_solution',
        'recall_solution',
      ]),
    );
  });
});
