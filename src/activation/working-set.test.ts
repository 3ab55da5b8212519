import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import { formatWorkingSet } from '../context/format.js';
import type { Memory } from '../model/memory.js';
import { synthesizeWorkingSet } from './working-set.js';

const NOW = new Date('2025-03-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

function memory(id: string, fields: Partial<Memory>): Memory {
  const at = fields.occurredAt ?? daysAgo(1);
  return makeMemory({ id, text: `text of ${id}`, occurredAt: at, createdAt: at, ...fields });
}

function synthesize(pinned: Memory[], durable: Memory[]) {
  return synthesizeWorkingSet({ scope: 'user:alice', pinned, durable, now: NOW });
}

describe('working set synthesis', () => {
  it('is null when nothing qualifies', () => {
    expect(synthesize([], [memory('p', { kind: 'preference', tier: 'nice' })])).toBeNull();
  });

  it('carries rules, pinned memories, durable constraints and preferences, recent decisions and the current goal, in that order', () => {
    const set = synthesize(
      [memory('pin', { pinned: true }), memory('rule', { hardRule: true, kind: 'constraint', tier: 'must' })],
      [
        memory('goal-old', { kind: 'goal', occurredAt: daysAgo(9) }),
        memory('goal-new', { kind: 'goal', occurredAt: daysAgo(2) }),
        memory('decision-recent', { kind: 'decision', tier: 'must', occurredAt: daysAgo(3) }),
        memory('decision-stale', { kind: 'decision', tier: 'must', occurredAt: daysAgo(90) }),
        memory('decision-nice', { kind: 'decision', tier: 'nice' }),
        memory('pref', { kind: 'preference', tier: 'must' }),
        memory('constraint', { kind: 'constraint', tier: 'must' }),
        memory('rule', { hardRule: true, kind: 'constraint', tier: 'must' }),
      ],
    );

    expect(set?.items.map((item) => `${item.role}:${item.memory.id}`)).toEqual([
      'rule:rule',
      'pinned:pin',
      'constraint:constraint',
      'preference:pref',
      'decision:decision-recent',
      'goal:goal-new',
    ]);
    expect(set && formatWorkingSet(set)).toBe(
      [
        'Working set: standing context for user:alice',
        '- Rule: text of rule',
        '- Pinned: text of pin',
        '- Constraint: text of constraint',
        '- Preference: text of pref',
        `- Decision (${daysAgo(3).slice(0, 10)}): text of decision-recent`,
        '- Current goal: text of goal-new',
      ].join('\n'),
    );
  });

  it('is deterministic whatever order the memories arrive in', () => {
    const durable = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      memory(`c${n}`, { kind: 'constraint', tier: 'must', occurredAt: daysAgo(n) }),
    );
    const forward = synthesize([], durable);
    const backward = synthesize([], [...durable].reverse());

    expect(backward).toEqual(forward);
    // at most five constraints: the newest
    expect(forward?.items.map((item) => item.memory.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('shortens long items to one line', () => {
    const set = synthesize([memory('long', { pinned: true, text: `first line\nsecond ${'x'.repeat(400)}` })], []);
    const line = (set ? formatWorkingSet(set) : '').split('\n')[1] ?? '';
    expect(line.startsWith('- Pinned: first line second x')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThan(320);
  });
});
