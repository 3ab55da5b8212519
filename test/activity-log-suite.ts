/**
 * What the activity log promises, whatever the store: the engine logs every write it makes —
 * remember, supersede, update, forget, restore, an import (one line), the knowledge graph's
 * changes, the tools' writes in their own words — once each, and nothing for a write that was
 * refused or changed nothing. Run against SQLite (activity-log.test.ts) and PostgreSQL
 * (postgres-activity-log.test.ts).
 */
import { expect, it } from 'vitest';

import { createMemoryTools } from '../src/entries/tools.js';
import type { Engram } from '../src/index.js';

/** The lines of the log as [action, summary], the way a person reads them. */
async function lines(engram: Engram): Promise<string[][]> {
  return (await engram.activity()).map((line) => [line.action, line.summary]);
}

/** Registers the suite; `open` gives a fresh lexical-only engine on an empty store. */
export function activityLogSuite(open: () => Promise<Engram>): void {
  it('logs every write of the engine, one line each, in order', async () => {
    const engram = await open();
    const fact = await engram.remember({ text: 'Deploys happen on Tuesdays', kind: 'fact' });
    const first = await engram.remember({ text: 'Standup is at 9:30', kind: 'fact', key: 'standup' });
    const second = await engram.remember({ text: 'Standup is at 10:00', kind: 'fact', key: 'standup' });
    const third = await engram.remember({ text: 'Standup moved to 10:15', supersedes: second.id });
    await engram.rememberMany(['Lunch at noon', 'Retro on Fridays']);
    await engram.update(fact.id, { tier: 'must', pinned: true });
    await engram.forget(fact.id);
    await engram.forget(fact.id); // forgotten already: nothing written
    await engram.restore(fact.id);
    await engram.restore(fact.id); // live already: nothing written
    await engram.forget(third.id, { hard: true });
    await engram.import(
      [
        { text: 'Invoices go out on the 1st', kind: 'fact' },
        { type: 'entity', name: 'Zoe', entityType: 'person', observations: ['Runs billing'] },
      ],
      { from: 'notes.jsonl' },
    );
    await engram.graph.createEntities([{ name: 'Initech', entityType: 'organization' }]);
    await engram.graph.createEntities([{ name: 'initech', entityType: 'organization' }]); // exists: nothing written
    await engram.graph.createRelations([{ from: 'Zoe', to: 'Initech', relationType: 'works_at' }]);
    await engram.graph.addObservations([{ entityName: 'Zoe', contents: ['Speaks Portuguese'] }]);
    await engram.graph.deleteObservations([{ entityName: 'Zoe', observations: ['Speaks Portuguese'] }]);
    await engram.graph.deleteRelations([{ from: 'Zoe', to: 'Initech', relationType: 'works_at' }]);
    // Removing what is not there writes nothing, so it logs nothing.
    await engram.graph.deleteRelations([{ from: 'Zoe', to: 'Initech', relationType: 'works_at' }]);
    await engram.graph.deleteObservations([{ entityName: 'Zoe', observations: ['Speaks Portuguese'] }]);
    await engram.graph.deleteEntities(['Initech']);

    expect(await lines(engram)).toEqual([
      ['remember', 'fact: Deploys happen on Tuesdays'],
      ['remember', 'fact standup: Standup is at 9:30'],
      ['supersede', `fact standup: Standup is at 10:00 (replaces ${first.id})`],
      ['supersede', `fact standup: Standup moved to 10:15 (replaces ${second.id})`],
      ['remember', '2 memories: Lunch at noon · Retro on Fridays'],
      ['update', 'changed tier unknown → must, pinned false → true: Deploys happen on Tuesdays'],
      ['forget', 'archived: Deploys happen on Tuesdays'],
      ['restore', 'restored: Deploys happen on Tuesdays'],
      ['forget', `deleted ${third.id} for good: Standup moved to 10:15`],
      ['import', 'imported 1 memory; imported 1 entity and 0 relations into the knowledge graph from notes.jsonl'],
      ['create_entities', 'created 1 entity: Initech'],
      ['create_relations', 'created 1 relation: Zoe works_at Initech'],
      ['add_observations', 'added 1 observation to Zoe'],
      ['delete_observations', 'deleted observations of Zoe'],
      ['delete_relations', 'deleted 1 relation: Zoe works_at Initech'],
      ['delete_entities', 'deleted the entities named Initech'],
    ]);
    const log = await engram.activity();
    expect(log[0]).toMatchObject({ memoryId: fact.id, key: null, tenant: engram.tenant });
    expect(log[1]?.key).toBe('standup');
    expect(log[8]?.memoryId).toBeNull(); // deleted for good: nothing to link to
  });

  it('logs nothing for a write that was refused', async () => {
    const engram = await open();
    const kept = await engram.remember('Keep me');
    const before = await engram.activity();
    await expect(engram.remember({ text: 'x', kind: 'nonsense' as 'fact' })).rejects.toThrow(/kind must be one of/);
    await expect(engram.update(kept.id, { tier: 'sometimes' as 'must' })).rejects.toThrow(/tier must be one of/);
    await expect(engram.forget('no-such-id')).rejects.toThrow(/no memory with id/);
    await expect(engram.import([{ text: 'fine' }, { text: 'bad', tier: 'sometimes' }])).rejects.toThrow(/line 2/);
    await expect(engram.graph.createRelations([{ from: 'Nobody', to: 'Nothing', relationType: 'knows' }])).rejects.toThrow(
      /no entity named Nobody/,
    );
    expect(await engram.activity()).toEqual(before);
  });

  it('logs each tool write once, under the tool’s name and words', async () => {
    const engram = await open();
    const tools = createMemoryTools({ engram, scope: 'project:x', sessionId: 's1' });
    const call = (name: string, args: unknown) => tools.find((tool) => tool.name === name)?.execute(args);
    await call('write_memory', { key: 'deploy-steps', content: 'Build the image' });
    await call('write_memory', { key: 'deploy-steps', content: 'Push it', mode: 'append' });
    await call('think', { thought: 'The deploy needs a tag first' });
    await call('scratch_note', { mode: 'replace', content: '1. tag' });
    await call('scratch_note', { mode: 'read' });
    await call('scratch_note', { mode: 'clear' });
    await call('write_session_handoff', { content: 'Deploy is half done' });
    await call('store_solution', { goal: 'Deploy the app', approach: 'Tag, build, push', outcome: 'Live', confidence: 80 });
    await call('search_memory', { query: 'deploy' });
    expect(await lines(engram)).toEqual([
      ['write_memory', 'created deploy-steps: Build the image'],
      ['write_memory', 'appended to deploy-steps: Push it'],
      ['think', 'thought: The deploy needs a tag first'],
      ['scratch_note', 'wrote the scratchpad: 1. tag'],
      ['scratch_note', 'cleared the scratchpad'],
      ['write_session_handoff', 'created the session handoff: Deploy is half done'],
      ['store_solution', 'solved: Deploy the app'],
    ]);
    expect((await engram.activity())[0]?.key).toBe('deploy-steps');
  });
}
