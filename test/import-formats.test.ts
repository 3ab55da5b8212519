/**
 * `engram.import` reads what users have, on a real SQLite file: Engram's own export, records
 * with just the fields `POST /v1/memories` needs (and its defaults), and the MCP reference
 * memory server's `memory.jsonl` into the knowledge graph — so that `read_graph` answers the
 * file's graph. A bad record is named by its line (and array index) and field, and nothing —
 * memory, entity or activity line — is written.
 */
import { describe, expect, it } from 'vitest';

import { createGraphTools, type GraphEntity, type GraphRelation } from '../src/entries/tools.js';
import type { Engram, Memory } from '../src/index.js';
import { largeGraph, type ReferenceGraph, referenceMemoryFile, SAMPLE_GRAPH } from './fixtures/reference-memory.js';
import { openTestEngram, snapshot } from './tools-helpers.js';

/** The whole graph as an agent reads it: `read_graph`, page after page. */
async function readWholeGraph(engram: Engram): Promise<{ entities: GraphEntity[]; relations: GraphRelation[] }> {
  const readGraph = createGraphTools({ engram }).find((tool) => tool.name === 'read_graph');
  const entities: GraphEntity[] = [];
  const relations: GraphRelation[] = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = (await readGraph?.execute({ offset })) as {
      entities: GraphEntity[];
      relations: GraphRelation[];
      nextOffset: number | null;
    };
    entities.push(...page.entities);
    relations.push(...page.relations);
    offset = page.nextOffset;
  }
  return { entities, relations };
}

/** Relations in a fixed order, to compare graphs whose relations come in another order. */
function sorted(relations: readonly GraphRelation[]): GraphRelation[] {
  return [...relations].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The records of a file in the reference server's format, as the CLI reads them. */
function linesOf(graph: ReferenceGraph): unknown[] {
  return referenceMemoryFile(graph)
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

/** Everything the engine holds that an import could change. */
async function everything(engram: Engram) {
  return { ...(await snapshot(engram)), graph: await readWholeGraph(engram) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the import to be refused');
}

const NO_GRAPH = { entities: 0, relations: 0, newEntities: 0, newRelations: 0 };

describe('importing a minimal record', () => {
  it('stores it with the defaults POST /v1/memories gives the same body', async () => {
    const imported = await openTestEngram();
    const remembered = await openTestEngram();
    const body = { text: 'first ok', kind: 'fact' as const };
    expect(await imported.import([body])).toEqual({ read: 1, imported: 1, replaced: 0, skipped: 0, graph: NO_GRAPH });
    const [memory] = await imported.list();
    const { id: _id, ...fields } = memory as Memory;
    const { id: _other, ...expected } = await remembered.remember(body);
    expect(fields).toEqual(expected);
    expect(fields).toMatchObject({ scope: 'global', tier: 'unknown', source: 'user', trust: 1, pinned: false, tags: [] });
  });

  it('lets a keyed record supersede the live memory of that key, as remember does', async () => {
    const engram = await openTestEngram();
    const old = await engram.remember({ text: 'Standup is at 9:30', key: 'standup' });
    await engram.import([{ text: 'Standup is at 10:00', key: 'standup', tier: 'must_remember' }]);
    const now = await engram.getByKey('standup');
    expect(now).toMatchObject({ text: 'Standup is at 10:00', tier: 'must' });
    expect((await engram.get(old.id))?.supersededBy).toBe(now?.id);
  });
});

describe('importing the MCP reference memory server’s memory.jsonl', () => {
  it('puts it in the knowledge graph: read_graph answers exactly the file’s graph', async () => {
    const engram = await openTestEngram();
    const summary = await engram.import(linesOf(SAMPLE_GRAPH));
    expect(summary).toEqual({
      read: 0,
      imported: 0,
      replaced: 0,
      skipped: 0,
      graph: { entities: 4, relations: 4, newEntities: 4, newRelations: 4 },
    });
    const graph = await readWholeGraph(engram);
    expect(graph.entities).toEqual(SAMPLE_GRAPH.entities);
    expect(sorted(graph.relations)).toEqual(sorted(SAMPLE_GRAPH.relations));
    expect(await engram.list()).toEqual([]);
  });

  it('takes a graph past the graph tools’ per-call caps', async () => {
    const engram = await openTestEngram();
    const file = largeGraph();
    await engram.import(linesOf(file));
    const graph = await readWholeGraph(engram);
    expect(graph.entities).toEqual(file.entities);
    expect(sorted(graph.relations)).toEqual(sorted(file.relations));
  });

  it('merges into the graph it finds: new observations added, the stored type kept, nothing doubled', async () => {
    const engram = await openTestEngram();
    await engram.graph.createEntities([{ name: 'billing service', entityType: 'system', observations: ['Owned by team 7'] }]);
    await engram.import(linesOf(SAMPLE_GRAPH));
    const again = await engram.import(linesOf(SAMPLE_GRAPH));
    expect(again.graph).toEqual({ entities: 4, relations: 4, newEntities: 0, newRelations: 0 });
    const [billing] = (await engram.graph.openNodes(['Billing Service'])).entities;
    expect(billing).toEqual({
      name: 'billing service',
      entityType: 'system',
      observations: ['Owned by team 7', 'Written in TypeScript', 'Deploys on Tuesdays'],
    });
    expect((await readWholeGraph(engram)).relations).toHaveLength(4);
  });

  it('reads lines naming one entity (ignoring case) as one entity with every observation', async () => {
    const engram = await openTestEngram();
    await engram.import([
      { type: 'entity', name: 'Alice', entityType: 'person', observations: ['Speaks Spanish'] },
      { type: 'entity', name: 'alice', entityType: 'person', observations: ['Speaks Spanish', 'Lives in Porto'] },
    ]);
    expect((await readWholeGraph(engram)).entities).toEqual([
      { name: 'Alice', entityType: 'person', observations: ['Speaks Spanish', 'Lives in Porto'] },
    ]);
  });
});

describe('importing a mix', () => {
  it('stores an exported memory as it was, a new memory with defaults, and graph lines, in one call', async () => {
    const source = await openTestEngram();
    const exported = await source.remember({ text: 'Release owner is Dan', kind: 'fact', tier: 'must', tags: ['release'] });
    await source.forget(exported.id);
    const archived = (await source.get(exported.id)) as Memory;

    const engram = await openTestEngram();
    const summary = await engram.import([
      JSON.parse(JSON.stringify(archived)),
      { text: 'Deploys happen on Tuesdays', kind: 'fact' },
      { type: 'entity', name: 'Dan', entityType: 'person', observations: ['Owns the release'] },
      { type: 'entity', name: 'Release', entityType: 'process' },
      { type: 'relation', from: 'Dan', to: 'Release', relationType: 'owns' },
    ]);
    expect(summary).toEqual({
      read: 2,
      imported: 2,
      replaced: 0,
      skipped: 0,
      graph: { entities: 2, relations: 1, newEntities: 2, newRelations: 1 },
    });
    expect(await engram.get(archived.id)).toEqual({ ...archived, tenant: engram.tenant });
    expect((await engram.list()).map((memory) => memory.text)).toEqual(['Deploys happen on Tuesdays']);
    expect((await engram.graph.openNodes(['Dan'])).relations).toEqual([{ from: 'Dan', to: 'Release', relationType: 'owns' }]);
  });
});

describe('a bad record', () => {
  /** An engine holding a memory, an entity and activity, and the records of a file whose last line is bad. */
  async function seeded(): Promise<Engram> {
    const engram = await openTestEngram();
    await engram.remember('Already here');
    await engram.graph.createEntities([{ name: 'Acme', entityType: 'organization' }]);
    return engram;
  }
  const good = [
    { text: 'Deploys happen on Tuesdays', kind: 'fact' },
    { type: 'entity', name: 'Alice', entityType: 'person', observations: ['Speaks Spanish'] },
    { type: 'relation', from: 'Alice', to: 'Acme', relationType: 'works_at' },
  ];

  it.each([
    [
      'a relation to an entity neither in the file nor in the graph',
      { type: 'relation', from: 'Alice', to: 'Bob', relationType: 'knows' },
      /^line 4: the relation Alice knows Bob names Bob, which is an entity neither of this file nor of the graph; nothing was imported: add a line \{"type": "entity", "name": "Bob"/,
    ],
    [
      'a new memory with a wrong tier',
      { text: 'Lunch at noon', tier: 'sometimes' },
      /^line 4: tier must be one of: must, nice, unknown .*; nothing was imported: fix this line and import again$/,
    ],
    [
      'a new memory with a field it does not take',
      { text: 'Lunch at noon', kinds: 'fact' },
      /^line 4: unknown field kinds; nothing was imported: a new memory takes only text, kind, tier, /,
    ],
    [
      'a type a memory does not have',
      { type: 'fact', text: 'Lunch at noon' },
      /^line 4: type "fact" is neither "entity" nor "relation"; nothing was imported: a memory has no type field: write "kind": "fact" instead$/,
    ],
    [
      'an entity line without its type',
      { type: 'entity', name: 'Bob', observations: [] },
      /^line 4: an entity line: entityType is required: .*; nothing was imported: fix this line and import again$/,
    ],
    [
      'a record with an id but not the rest of an export',
      { id: 'm-1', text: 'Lunch at noon' },
      /^line 4: a record with an id is read as a line of engram export, .* lacks 20 of them \(tenant, scope, kind, …\); nothing was imported: leave the id out/,
    ],
    [
      'a supersedes naming no memory',
      { text: 'Lunch at one', supersedes: 'no-such-id' },
      /^line 4: supersedes: cannot supersede no-such-id: no memory with that id; nothing was imported: name a live memory, or leave supersedes out$/,
    ],
    [
      'a list instead of an object',
      ['Lunch at noon'],
      /^line 4: a record must be a JSON object, not a list; nothing was imported: write one object per line/,
    ],
  ])('refuses %s, naming its line and field, and writes nothing', async (_case, bad, message) => {
    const engram = await seeded();
    const before = await everything(engram);
    expect(await refusal(engram.import([...good, bad]))).toMatch(message);
    expect(await everything(engram)).toEqual(before);
  });

  it('names the array index too, when the records came from a JSON array', async () => {
    const engram = await seeded();
    const message = await refusal(
      engram.import([{ text: 'fine' }, { text: 'bad', tier: 'sometimes' }], {
        positions: [
          { line: 2, index: 0 },
          { line: 3, index: 1 },
        ],
      }),
    );
    expect(message).toMatch(/^line 3 \(array index 1\): tier must be one of/);
  });
});
