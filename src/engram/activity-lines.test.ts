import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Memory } from '../model/memory.js';
import { forgottenLine, graphLines, importedLine, rememberedLine, restoredLine, updatedLine } from './activity-lines.js';
import type { ImportSummary } from './import-records.js';

const fact = makeMemory({ id: 'm1', text: 'Deploys happen on Tuesdays', kind: 'fact' });
const keyed = makeMemory({ id: 'm2', text: 'Standup is at 10:00', kind: 'fact', key: 'standup' });
const old = makeMemory({ id: 'm0', text: 'Standup is at 9:30', kind: 'fact', key: 'standup' });

describe('rememberedLine', () => {
  it.each([
    ['a memory', [fact], [], { action: 'remember', key: null, memoryId: 'm1', summary: 'fact: Deploys happen on Tuesdays' }],
    [
      'a keyed memory replacing its key’s holder',
      [keyed],
      [old],
      { action: 'supersede', key: 'standup', memoryId: 'm2', summary: 'fact standup: Standup is at 10:00 (replaces m0)' },
    ],
    [
      'several memories in one call',
      [fact, keyed],
      [old],
      {
        action: 'remember',
        key: null,
        memoryId: null,
        summary: '2 memories, superseding 1: Deploys happen on Tuesdays · Standup is at 10:00',
      },
    ],
  ])('describes %s', (_case, memories, replaced, line) => {
    expect(rememberedLine(memories, replaced)).toEqual(line);
  });

  it('takes a caller’s label, keeping the memory’s id and key', () => {
    expect(rememberedLine([keyed], [old], { action: 'write_memory', summary: 'replaced standup: Standup is at 10:00' })).toEqual({
      action: 'write_memory',
      key: 'standup',
      memoryId: 'm2',
      summary: 'replaced standup: Standup is at 10:00',
    });
  });

  it('puts long text on one line, cut', () => {
    const long = makeMemory({ id: 'm3', kind: 'note', text: `first line\n${'word '.repeat(40)}` });
    const { summary } = rememberedLine([long], []);
    expect(summary).not.toContain('\n');
    expect(summary.endsWith('…')).toBe(true);
    expect(summary.length).toBeLessThanOrEqual('note: '.length + 80);
  });
});

describe('updatedLine', () => {
  it.each([
    [
      'tier and pin',
      { tier: 'must', pinned: true },
      'changed tier unknown → must, pinned false → true: Deploys happen on Tuesdays',
    ],
    ['tags', { tags: ['ops', 'deploy'] }, 'changed tags [] → ops, deploy: Deploys happen on Tuesdays'],
    ['text, by name only', { text: 'Deploys happen on Wednesdays' }, 'changed text: Deploys happen on Wednesdays'],
    ['a key taken away', { key: null }, 'changed key standup → —: Standup is at 10:00'],
    ['nothing', {}, 'nothing changed: Deploys happen on Tuesdays'],
  ] as const)('lists the fields changed: %s', (_case, patch, summary) => {
    const before = 'key' in patch ? keyed : fact;
    expect(updatedLine(before, { ...before, ...(patch as Partial<Memory>), updatedAt: 'later' })).toMatchObject({
      action: 'update',
      memoryId: before.id,
      summary,
    });
  });
});

describe('forgottenLine and restoredLine', () => {
  it('links an archived memory and names a deleted one by id', () => {
    expect(forgottenLine(fact, false)).toEqual({
      action: 'forget',
      key: null,
      memoryId: 'm1',
      summary: 'archived: Deploys happen on Tuesdays',
    });
    expect(forgottenLine(fact, true)).toEqual({
      action: 'forget',
      key: null,
      memoryId: null,
      summary: 'deleted m1 for good: Deploys happen on Tuesdays',
    });
    expect(restoredLine(keyed)).toEqual({
      action: 'restore',
      key: 'standup',
      memoryId: 'm2',
      summary: 'restored: Standup is at 10:00',
    });
  });
});

describe('importedLine', () => {
  const summary = (fields: Partial<ImportSummary>, graph: Partial<ImportSummary['graph']> = {}): ImportSummary => ({
    read: 0,
    imported: 0,
    replaced: 0,
    skipped: 0,
    ...fields,
    graph: { entities: 0, relations: 0, newEntities: 0, newRelations: 0, ...graph },
  });

  it.each([
    ['memories', summary({ read: 25, imported: 25 }), 'file.jsonl', 'imported 25 memories from file.jsonl'],
    [
      'memories, some present',
      summary({ read: 20, imported: 15, replaced: 2, skipped: 3 }),
      undefined,
      'imported 15 of 20 memories, replaced 2, skipped 3 already present',
    ],
    [
      'a knowledge graph',
      summary({}, { entities: 3, relations: 2, newEntities: 3, newRelations: 1 }),
      'memory.jsonl',
      'imported 3 entities and 1 of 2 relations into the knowledge graph from memory.jsonl',
    ],
    [
      'both',
      summary({ read: 1, imported: 1 }, { entities: 1, newEntities: 1 }),
      'mixed.jsonl',
      'imported 1 memory; imported 1 entity and 0 relations into the knowledge graph from mixed.jsonl',
    ],
  ])('counts %s in one line', (_case, done, from, text) => {
    expect(importedLine(done, from)).toEqual({ action: 'import', key: null, memoryId: null, summary: text });
  });
});

describe('graphLines', () => {
  it('names each change as its tool, and nothing for a call that changed nothing', () => {
    expect(graphLines.createEntities([{ name: 'Alice', entityType: 'person', observations: [] }])?.summary).toBe(
      'created 1 entity: Alice',
    );
    expect(graphLines.createEntities([])).toBeNull();
    expect(graphLines.createRelations([{ from: 'Alice', to: 'Acme', relationType: 'works_at' }])).toMatchObject({
      action: 'create_relations',
      summary: 'created 1 relation: Alice works_at Acme',
    });
    expect(
      graphLines.addObservations([
        { entityName: 'Alice', addedObservations: ['Speaks Spanish', 'Lives in Porto'] },
        { entityName: 'Acme', addedObservations: [] },
      ])?.summary,
    ).toBe('added 2 observations to Alice');
    expect(graphLines.addObservations([{ entityName: 'Acme', addedObservations: [] }])).toBeNull();
    expect(graphLines.deleteEntities(['Alice', 'Bob']).summary).toBe('deleted the entities named Alice, Bob');
  });
});
