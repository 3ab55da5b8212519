/**
 * The tools' names and argument schemas are a contract with every model prompt and agent
 * built on them (seed 003): they change only on purpose, and only by adding. Descriptions may
 * be reworded; names, types, required fields, enums and caps may not.
 */
import { describe, expect, it } from 'vitest';

import { KINDS, TIERS } from '../src/entries/model.js';
import {
  createGraphTools,
  createMemoryTools,
  GRAPH_TOOL_LIMITS,
  GRAPH_TOOL_NAMES,
  MEMORY_TOOL_NAMES,
  type MemoryTool,
  TOOL_LIMITS,
} from '../src/entries/tools.js';

/** A schema without its descriptions: the part a model's calls depend on. */
function shape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shape);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'description')
      .map(([key, value]) => [key, shape(value)]),
  );
}

const text = (maxLength: number, minLength = 1) => ({ type: 'string', minLength, maxLength });
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const CONTRACT = {
  search_memory: object(
    {
      query: text(1000),
      limit: { type: 'number' },
      kinds: { type: 'array', items: { type: 'string', enum: [...KINDS] } },
      tiers: { type: 'array', items: { type: 'string', enum: [...TIERS] } },
      scopes: { type: 'array', items: text(1000) },
    },
    ['query'],
  ),
  write_memory: object(
    {
      key: text(200),
      content: text(20_000),
      mode: { default: 'replace', type: 'string', enum: ['replace', 'append'] },
      tier: { type: 'string', enum: ['must', 'nice', 'unknown'] },
    },
    ['key', 'content'],
  ),
  write_session_handoff: object({ content: text(20_000) }, ['content']),
  scratch_note: object(
    {
      mode: { type: 'string', enum: ['replace', 'append', 'clear', 'read'] },
      content: { type: 'string', maxLength: 20_000 },
    },
    ['mode'],
  ),
  think: object({ thought: text(10_000) }, ['thought']),
  store_solution: object(
    {
      goal: text(1000),
      approach: text(10_000),
      outcome: text(2000),
      confidence: { type: 'number', minimum: 0, maximum: 100 },
      status: { default: 'succeeded', type: 'string', enum: ['succeeded', 'failed'] },
    },
    ['goal', 'approach', 'outcome', 'confidence'],
  ),
  recall_solution: object(
    {
      goal: text(1000),
      limit: { type: 'number' },
      similarity: { type: 'string', enum: ['keyword', 'semantic', 'hybrid'] },
    },
    ['goal'],
  ),
};

describe('the memory tool contract', () => {
  // The tools are only described here, never run: no engine is needed.
  const tools = createMemoryTools({ engram: {} as never });

  it('offers exactly these tools, in this order', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_memory',
      'write_memory',
      'write_session_handoff',
      'scratch_note',
      'think',
      'store_solution',
      'recall_solution',
    ]);
    expect(MEMORY_TOOL_NAMES).toEqual(tools.map((tool) => tool.name));
  });

  it.each(Object.entries(CONTRACT))('keeps the argument schema of %s', (name, expected) => {
    const tool = tools.find((candidate) => candidate.name === name);
    expect(shape(tool?.inputSchema)).toEqual(expected);
  });

  it('describes the tool and every argument for the model', () => {
    expectDescribedForTheModel(tools);
  });

  it('documents the caps the schemas enforce', () => {
    expect(TOOL_LIMITS).toMatchObject({
      queryChars: 1000,
      searchResults: 50,
      keyChars: 200,
      contentChars: 20_000,
      noteChars: 100_000,
      thoughtChars: 10_000,
      goalChars: 1000,
      approachChars: 10_000,
      outcomeChars: 2000,
    });
  });

  it('can offer a subset, and refuses a tool that does not exist', () => {
    expect(createMemoryTools({ engram: {} as never, only: ['think', 'search_memory'] }).map((tool) => tool.name)).toEqual([
      'search_memory',
      'think',
    ]);
    expect(() => createMemoryTools({ engram: {} as never, only: ['forget_everything' as never] })).toThrow(
      'unknown tool forget_everything: choose from search_memory, write_memory',
    );
  });
});

/**
 * The MCP reference memory server's tools, by its names and argument shapes (its
 * `src/memory/index.ts`): an agent configured for that server must work against Engram
 * unchanged. Engram only adds caps, lets `observations` be left out, and pages `read_graph`.
 */
const entity = object(
  {
    name: text(500),
    entityType: text(200),
    observations: { type: 'array', maxItems: 100, items: text(2000) },
  },
  ['name', 'entityType'],
);
const relation = object({ from: text(500), to: text(500), relationType: text(200) }, ['from', 'to', 'relationType']);
const list = (items: unknown) => ({ type: 'array', maxItems: 100, items });

const GRAPH_CONTRACT = {
  create_entities: object({ entities: list(entity) }, ['entities']),
  create_relations: object({ relations: list(relation) }, ['relations']),
  add_observations: object(
    { observations: list(object({ entityName: text(500), contents: list(text(2000)) }, ['entityName', 'contents'])) },
    ['observations'],
  ),
  delete_entities: object({ entityNames: list(text(500)) }, ['entityNames']),
  delete_observations: object(
    { deletions: list(object({ entityName: text(500), observations: list(text(2000)) }, ['entityName', 'observations'])) },
    ['deletions'],
  ),
  delete_relations: object({ relations: list(relation) }, ['relations']),
  read_graph: {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      limit: { type: 'integer', minimum: 1, maximum: 1000 },
    },
    additionalProperties: false,
  },
  search_nodes: object({ query: text(1000) }, ['query']),
  open_nodes: object({ names: list(text(500)) }, ['names']),
};

describe('the knowledge graph tool contract', () => {
  const tools = createGraphTools({ engram: {} as never });

  it('offers the reference memory server’s nine tools, in its order', () => {
    expect(tools.map((tool) => tool.name)).toEqual(Object.keys(GRAPH_CONTRACT));
    expect(GRAPH_TOOL_NAMES).toEqual(tools.map((tool) => tool.name));
    expect(tools.some((tool) => (MEMORY_TOOL_NAMES as readonly string[]).includes(tool.name))).toBe(false);
  });

  it.each(Object.entries(GRAPH_CONTRACT))('keeps the argument schema of %s', (name, expected) => {
    const tool = tools.find((candidate) => candidate.name === name);
    expect(shape(tool?.inputSchema)).toEqual(expected);
  });

  it('describes the tool and every argument for the model', () => {
    expectDescribedForTheModel(tools);
  });

  it('documents the caps the schemas enforce', () => {
    expect(GRAPH_TOOL_LIMITS).toMatchObject({
      nameChars: 500,
      typeChars: 200,
      observationChars: 2000,
      itemsPerCall: 100,
      observationsPerEntity: 100,
      defaultPage: 100,
      maxPage: 1000,
    });
  });

  it('can offer a subset, and refuses a tool that does not exist', () => {
    expect(createGraphTools({ engram: {} as never, only: ['open_nodes', 'search_nodes'] }).map((t) => t.name)).toEqual([
      'search_nodes',
      'open_nodes',
    ]);
    expect(() => createGraphTools({ engram: {} as never, only: ['drop_graph' as never] })).toThrow(
      'unknown graph tool drop_graph: choose from create_entities',
    );
  });
});

/** Every tool says what it does, and every argument what it is, in words a model can use. */
function expectDescribedForTheModel(tools: readonly MemoryTool[]): void {
  for (const tool of tools) {
    expect(tool.description.length, tool.name).toBeGreaterThan(80);
    for (const [field, schema] of Object.entries(tool.inputSchema.properties)) {
      expect((schema as { description?: string }).description, `${tool.name}.${field}`).toMatch(/\S{3}/);
    }
  }
}
