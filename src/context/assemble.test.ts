import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Memory } from '../model/memory.js';
import { assembleContext, type ContextSources } from './assemble.js';

const m = (id: string, text: string, fields: Partial<Memory> = {}): Memory => makeMemory({ id, text, ...fields });

function sources(overrides: Partial<ContextSources> = {}): ContextSources {
  return {
    handoff: m('h', 'Left off at the export.', { kind: 'handoff' }),
    workingSet: {
      scope: 'global',
      items: [
        { memory: m('rule', 'Never deploy on Fridays', { hardRule: true }), role: 'rule' },
        { memory: m('pref', 'Prefers short answers', { kind: 'preference' }), role: 'preference' },
      ],
    },
    recall: [m('r1', 'Best recalled memory'), m('r2', 'Second recalled memory')],
    scratchpad: m('s', 'todo: fix the export', { kind: 'scratchpad' }),
    thoughts: [m('t1', 'An old thought about the plan'), m('t2', 'A newer thought about the plan')],
    ...overrides,
  };
}

describe('context assembly', () => {
  it('puts the sections in seed 003’s order and leaves out empty ones', () => {
    expect(assembleContext(sources(), 10_000).sections.map((s) => s.name)).toEqual([
      'handoff',
      'working_set',
      'recall',
      'scratchpad',
      'thoughts',
    ]);
    const sparse = assembleContext(sources({ handoff: null, recall: [], scratchpad: null }), 10_000);
    expect(sparse.sections.map((s) => s.name)).toEqual(['working_set', 'thoughts']);
    expect(sparse.trimmed).toEqual([]);
  });

  it('trims oldest thoughts, then the lowest recall, the scratchpad, working-set items and finally shortens the handoff', () => {
    const full = assembleContext(sources(), 10_000).tokens;
    const cuts = (budget: number) =>
      assembleContext(sources(), budget).trimmed.map((t) => `${t.section}:${t.memoryIds.join()}:${t.how}`);

    expect(cuts(full - 1)).toEqual(['thoughts:t1:dropped']);
    expect(cuts(45)).toEqual([
      'thoughts:t1:dropped',
      'thoughts:t2:dropped',
      'recall:r2:dropped',
      'recall:r1:dropped',
      'scratchpad:s:dropped',
      'working_set:pref:dropped',
    ]);
    const tight = assembleContext(sources(), 20);
    expect(tight.trimmed.map((t) => t.section)).toContain('handoff');
    expect(tight.tokens).toBeLessThanOrEqual(20);
  });

  it('ends even when the budget is smaller than any section, dropping the handoff last', () => {
    for (const budget of [1, 5, 16]) {
      const result = assembleContext(sources({ workingSet: null, recall: [], scratchpad: null, thoughts: [] }), budget);
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(result.trimmed.at(-1)).toMatchObject({ section: 'handoff', how: 'dropped' });
    }
  });

  it('keeps hard rules until every other working-set item is gone', () => {
    const result = assembleContext(sources({ handoff: null }), 25);
    expect(result.sections.find((s) => s.name === 'working_set')?.text).toContain('Never deploy on Fridays');
    expect(result.trimmed.some((t) => t.memoryIds.includes('pref'))).toBe(true);
  });

  it('reports the tokens of each section and of the whole', () => {
    const result = assembleContext(sources(), 10_000);
    expect(result.tokens).toBe(result.sections.reduce((sum, s) => sum + s.tokens, 0));
    for (const section of result.sections) expect(section.tokens).toBe(Math.ceil(section.text.length / 4));
  });
});
