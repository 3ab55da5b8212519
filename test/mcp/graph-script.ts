/**
 * The knowledge-graph tools driven the way an agent configured for the MCP reference memory
 * server drives them: by the reference's tool names and argument shapes, through the official
 * SDK client, against any Engram MCP endpoint (stdio or streamable HTTP).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

import { callTool } from './helpers.js';

/**
 * The reference server's tools and argument shapes (its `src/memory/index.ts`): each tool's
 * top-level fields, required first, and the fields of the objects inside its lists.
 */
export const REFERENCE_SHAPES: Record<string, { required: string[]; optional: string[]; items?: string[] }> = {
  create_entities: { required: ['entities'], optional: [], items: ['name', 'entityType', 'observations'] },
  create_relations: { required: ['relations'], optional: [], items: ['from', 'to', 'relationType'] },
  add_observations: { required: ['observations'], optional: [], items: ['entityName', 'contents'] },
  delete_entities: { required: ['entityNames'], optional: [] },
  delete_observations: { required: ['deletions'], optional: [], items: ['entityName', 'observations'] },
  delete_relations: { required: ['relations'], optional: [], items: ['from', 'to', 'relationType'] },
  // Engram pages the graph: offset and limit are its only addition.
  read_graph: { required: [], optional: ['offset', 'limit'] },
  search_nodes: { required: ['query'], optional: [] },
  open_nodes: { required: ['names'], optional: [] },
};

interface ServedTool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string; items?: { properties?: object } }>; required?: string[] };
}

/** `tools/list` carries the nine tools with the reference's argument names. */
export function expectReferenceShapes(tools: readonly ServedTool[]): void {
  for (const [name, shape] of Object.entries(REFERENCE_SHAPES)) {
    const tool = tools.find((candidate) => candidate.name === name);
    expect(tool, name).toBeDefined();
    const properties = tool?.inputSchema.properties ?? {};
    expect(Object.keys(properties).sort(), name).toEqual([...shape.required, ...shape.optional].sort());
    expect(tool?.inputSchema.required ?? [], name).toEqual(shape.required);
    const [list] = shape.required;
    if (shape.items && list) expect(Object.keys(properties[list]?.items?.properties ?? {}), name).toEqual(shape.items);
    if (list && name !== 'search_nodes') expect(properties[list]?.type, name).toBe('array');
  }
}

type Graph = { entities: { name: string; entityType: string; observations: string[] }[]; relations: unknown[] };

/** Calls `name`, expects success, and returns its structured result (checked against its text). */
async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
  expect(JSON.parse(result.content[0]?.text ?? 'null')).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** Calls `name`, expects a tool error (not a protocol error), and returns its message. */
async function refused(client: Client, name: string, args: Record<string, unknown>, message: RegExp): Promise<void> {
  const result = await callTool(client, name, args);
  expect(result.isError, name).toBe(true);
  expect(result.content[0]?.text, name).toMatch(message);
  expect(result.content[0]?.text, name).not.toMatch(/\n\s+at /);
}

/** Reads the whole graph, following nextOffset. */
async function wholeGraph(client: Client): Promise<Graph> {
  const graph: Graph = { entities: [], relations: [] };
  let offset: number | null = 0;
  while (offset !== null) {
    const page: Graph & { nextOffset: number | null } = await ok(client, 'read_graph', { offset, limit: 2 });
    graph.entities.push(...page.entities);
    graph.relations.push(...page.relations);
    offset = page.nextOffset;
  }
  return graph;
}

/** Create → relate → observe → search → open → page → refuse bad calls → delete, by the reference's names. */
export async function exerciseGraphTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expectReferenceShapes(tools as ServedTool[]);

  const created = await ok<Graph>(client, 'create_entities', {
    entities: [
      { name: 'Alice', entityType: 'person', observations: ['Prefers short answers'] },
      { name: 'Acme', entityType: 'organization', observations: [] },
      { name: 'Lyon', entityType: 'place', observations: [] },
    ],
  });
  expect(created.entities.map((entity) => entity.name)).toEqual(['Alice', 'Acme', 'Lyon']);
  expect(await ok(client, 'create_entities', { entities: [{ name: 'alice', entityType: 'robot', observations: [] }] })).toEqual({
    entities: [],
  });

  expect(
    await ok(client, 'create_relations', {
      relations: [
        { from: 'Alice', to: 'Acme', relationType: 'works_at' },
        { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
      ],
    }),
  ).toEqual({
    relations: [
      { from: 'Alice', to: 'Acme', relationType: 'works_at' },
      { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
    ],
  });

  expect(
    await ok(client, 'add_observations', {
      observations: [{ entityName: 'Alice', contents: ['Speaks Spanish', 'Prefers short answers'] }],
    }),
  ).toEqual({ results: [{ entityName: 'Alice', addedObservations: ['Speaks Spanish'] }] });

  const found = await ok<Graph>(client, 'search_nodes', { query: 'spanish' });
  expect(found.entities.map((entity) => entity.name)).toEqual(['Alice']);

  const opened = await ok<Graph>(client, 'open_nodes', { names: ['alice', 'Acme', 'Nobody'] });
  expect(opened.entities).toEqual([
    { name: 'Alice', entityType: 'person', observations: ['Prefers short answers', 'Speaks Spanish'] },
    { name: 'Acme', entityType: 'organization', observations: [] },
  ]);
  // Every live relation touching the nodes, as the reference server answers: Alice's home too.
  expect(opened.relations).toEqual(
    expect.arrayContaining([
      { from: 'Alice', to: 'Acme', relationType: 'works_at' },
      { from: 'Alice', to: 'Lyon', relationType: 'lives_in' },
    ]),
  );
  expect(opened.relations).toHaveLength(2);

  const first = await ok(client, 'read_graph', { limit: 2 });
  expect(first).toMatchObject({ totalEntities: 3, nextOffset: 2 });
  expect(await ok(client, 'read_graph', { offset: 2, limit: 2 })).toMatchObject({
    entities: [{ name: 'Lyon' }],
    nextOffset: null,
  });
  expect(await ok(client, 'read_graph', {})).toMatchObject({ totalEntities: 3, nextOffset: null });
  const before = await wholeGraph(client);
  expect(before.entities).toHaveLength(3);
  expect(before.relations).toHaveLength(2);

  // Bad calls are tool errors the model can act on, and change nothing.
  await refused(
    client,
    'create_relations',
    {
      relations: [
        { from: 'Acme', to: 'Lyon', relationType: 'based_in' },
        { from: 'Alice', to: 'Globex', relationType: 'knows' },
      ],
    },
    /no entity named Globex: create it first with create_entities/,
  );
  await refused(
    client,
    'add_observations',
    {
      observations: [
        { entityName: 'Acme', contents: ['Makes anvils'] },
        { entityName: 'Bob', contents: ['Unknown'] },
      ],
    },
    /no entity named Bob/,
  );
  await refused(client, 'create_entities', { entities: [{ name: 'Bob', observations: [] }] }, /entityType is required/);
  await refused(client, 'create_entities', {}, /create_entities: entities is required/);
  await refused(client, 'open_nodes', { names: 'Alice' }, /names must be a list/);
  await refused(client, 'read_graph', { limit: 0 }, /limit must be from 1 to 1000/);
  await refused(client, 'search_nodes', { query: '  ' }, /query is empty/);
  expect(await wholeGraph(client)).toEqual(before);

  expect(
    await ok(client, 'delete_observations', { deletions: [{ entityName: 'Alice', observations: ['Prefers short answers'] }] }),
  ).toMatchObject({ success: true });
  expect(
    await ok(client, 'delete_relations', { relations: [{ from: 'Alice', to: 'Lyon', relationType: 'lives_in' }] }),
  ).toMatchObject({ success: true });
  expect(await ok(client, 'delete_entities', { entityNames: ['Acme', 'Nobody'] })).toEqual({
    success: true,
    message: 'Removed Acme and its relations from the graph. No entity named Nobody in the graph: nothing to remove for it.',
    deleted: ['Acme'],
    notFound: ['Nobody'],
  });
  expect(await wholeGraph(client)).toEqual({
    entities: [
      { name: 'Alice', entityType: 'person', observations: ['Speaks Spanish'] },
      { name: 'Lyon', entityType: 'place', observations: [] },
    ],
    relations: [],
  });
}
