/**
 * The argument schemas of the knowledge-graph tools, one per operation: the MCP reference
 * memory server's field names and shapes (so an agent set up for that server sends calls
 * Engram accepts unchanged), with Engram's caps and messages written for a model. Two
 * differences, both lenient: an entity's `observations` may be left out, and `read_graph`
 * takes an optional `offset` and `limit`, since Engram pages the graph instead of returning it
 * whole. The HTTP API validates its graph bodies with these same schemas.
 */
import { z } from 'zod';

import { requiredText } from './fields.js';
import { TOOL_LIMITS } from './limits.js';

/** The caps on one graph tool call; a call past one is refused and changes nothing. */
export const GRAPH_TOOL_LIMITS = {
  /** An entity name. */
  nameChars: 500,
  /** An `entityType` or `relationType`. */
  typeChars: 200,
  /** One observation. */
  observationChars: 2_000,
  /** Entities, relations, names or observation groups in one call. */
  itemsPerCall: 100,
  /** Observations per entity in one call. */
  observationsPerEntity: 100,
  /** Entities in one `read_graph` page. @default 100 */
  defaultPage: 100,
  /** The largest `read_graph` page. */
  maxPage: 1_000,
} as const;

const L = GRAPH_TOOL_LIMITS;

/** A list of at most `max` items, with messages that name the field. */
function list<T extends z.ZodType>(name: string, item: T, max: number, hint: string) {
  return z
    .array(item, {
      error: (issue) => (issue.input === undefined ? `${name} is required: ${hint}` : `${name} must be a list`),
    })
    .max(max, `${name} has more than ${max} items: send them in several calls`);
}

const entityName = (field: string) => requiredText(field, L.nameChars, 'give the entity’s name');
const observation = requiredText('observation', L.observationChars, 'write the fact as a short sentence');
const observations = (field: string, hint: string) => list(field, observation, L.observationsPerEntity, hint);

/** An entity as `create_entities` takes it. */
export const GraphEntitySchema = z.strictObject({
  name: entityName('name').describe('The entity’s name, its identity (matched ignoring case), e.g. "Alice Smith".'),
  entityType: requiredText('entityType', L.typeChars, 'say what kind of thing it is, e.g. person').describe(
    'What kind of thing it is, e.g. person, organization, project, place.',
  ),
  observations: observations('observations', 'list facts about the entity, or leave the field out')
    .optional()
    .describe('Facts about the entity, one short sentence each.'),
});

/** A directed relation between two named entities. */
export const GraphRelationSchema = z.strictObject({
  from: entityName('from').describe('The name of the entity the relation starts from (its subject).'),
  to: entityName('to').describe('The name of the entity the relation points to (its object).'),
  relationType: requiredText('relationType', L.typeChars, 'name the relation in active voice, e.g. works_at').describe(
    'The relation in active voice, e.g. works_at, manages, depends_on.',
  ),
});

const relations = (hint: string) => list('relations', GraphRelationSchema, L.itemsPerCall, hint);
const names = (field: string, hint: string) => list(field, entityName('name'), L.itemsPerCall, hint);

/** The request schema of each graph operation, by tool name: the tools' arguments and the HTTP bodies. */
export const GRAPH_REQUEST_SCHEMAS = {
  create_entities: z.strictObject({
    entities: list('entities', GraphEntitySchema, L.itemsPerCall, 'list the entities to create').describe(
      'The entities to create. An entity whose name exists already is ignored, its observations too: use add_observations for it.',
    ),
  }),
  create_relations: z.strictObject({
    relations: relations('list the relations to create').describe(
      'The relations to create; both ends must be existing entities. Relations that exist already are skipped.',
    ),
  }),
  add_observations: z.strictObject({
    observations: list(
      'observations',
      z.strictObject({
        entityName: entityName('entityName').describe('The existing entity the facts are about.'),
        contents: observations('contents', 'list the facts to add').describe('The facts to add, one short sentence each.'),
      }),
      L.itemsPerCall,
      'list { entityName, contents } pairs',
    ).describe('Facts to add, grouped by entity.'),
  }),
  delete_entities: z.strictObject({
    entityNames: names('entityNames', 'list the names of the entities to delete').describe(
      'The names of the entities to delete, with their relations.',
    ),
  }),
  delete_observations: z.strictObject({
    deletions: list(
      'deletions',
      z.strictObject({
        entityName: entityName('entityName').describe('The entity the facts belong to.'),
        observations: observations('observations', 'list the facts to remove').describe(
          'The facts to remove, exactly as stored.',
        ),
      }),
      L.itemsPerCall,
      'list { entityName, observations } pairs',
    ).describe('Facts to remove, grouped by entity.'),
  }),
  delete_relations: z.strictObject({
    relations: relations('list the relations to delete').describe('The relations to delete, as from, to, relationType.'),
  }),
  read_graph: z.strictObject({
    offset: z
      .number({ error: 'offset must be a number' })
      .int('offset must be a whole number')
      .min(0, 'offset must be at least 0: start at 0 and use nextOffset from the previous page')
      .optional()
      .describe('Entities to skip: 0 for the first page, then the nextOffset of the previous page. Default 0.'),
    limit: z
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, `limit must be from 1 to ${L.maxPage}`)
      .max(L.maxPage, `limit must be from 1 to ${L.maxPage}: read more pages instead`)
      .optional()
      .describe(`Entities per page, 1 to ${L.maxPage}. Default ${L.defaultPage}.`),
  }),
  search_nodes: z.strictObject({
    query: requiredText('query', TOOL_LIMITS.queryChars, 'say what to look for').describe(
      'Words to look for in entity names, types and observations; every word must match.',
    ),
  }),
  open_nodes: z.strictObject({
    names: names('names', 'list the names of the entities to open').describe('The names of the entities to open.'),
  }),
} as const;

/** The name of a graph tool: one of the MCP reference memory server's. */
export type GraphToolName = keyof typeof GRAPH_REQUEST_SCHEMAS;

/** The checked arguments of the graph tool `Name`. */
export type GraphRequest<Name extends GraphToolName> = z.output<(typeof GRAPH_REQUEST_SCHEMAS)[Name]>;
