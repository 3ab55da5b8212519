/**
 * Reading what an import is given, record by record, before anything is written: each record is
 * recognised by its shape — a line of `engram export` (it has an `id`), a new memory as
 * `remember` and `POST /v1/memories` take it (only `text` is required), or a line of the MCP
 * reference memory server's `memory.jsonl` (`"type": "entity"` or `"relation"`) — and validated
 * with that shape's schema. The first bad record stops the import, named by its line (and array
 * index) and field, with what to do.
 */
import { z } from 'zod';

import { EngramError } from '../errors.js';
import { KINDS, type Memory } from '../model/memory.js';
import { describeIssues, MemoryInputSchema, MemoryRecordSchema, type ParsedMemoryInput } from '../model/memory-input.js';
import { GraphEntitySchema, GraphRelationSchema } from '../tools/graph-schemas.js';
import type { ProgressListener } from './embed-batches.js';

/** Where a record was read: its line, and its index when the file is a JSON array. */
export interface RecordPosition {
  line: number;
  /** The record's index in a JSON array (from 0). */
  index?: number | undefined;
}

/** How to import. */
export interface ImportOptions {
  /** What to do with an exported record whose id is already stored. @default "skip" */
  onConflict?: 'skip' | 'replace';
  /** Line number of each record, for error messages. @default position + 1 */
  lines?: readonly number[] | undefined;
  /** Where each record was read (line, and index in a JSON array), for error messages; wins over `lines`. */
  positions?: readonly RecordPosition[] | undefined;
  /** What the records were read from (e.g. a file name), named in the activity log's line. */
  from?: string | undefined;
  onProgress?: ProgressListener;
}

/** What an import did. */
export interface ImportSummary {
  /** Memory records read: exported ones and new ones. */
  read: number;
  /** Memories stored: exported records not present yet, and every new memory. */
  imported: number;
  /** Exported records that overwrote the stored memory with their id (`onConflict: 'replace'`). */
  replaced: number;
  /** Exported records whose id was stored already, left as they were. */
  skipped: number;
  /** The knowledge-graph lines read (entities, relations) and how many of each were new to the graph. */
  graph: { entities: number; relations: number; newEntities: number; newRelations: number };
}

/** An entity line of the reference server's `memory.jsonl`. */
export interface EntityLine {
  name: string;
  entityType: string;
  observations: string[];
  where: string;
}

/** A relation line of the reference server's `memory.jsonl`. */
export interface RelationLine {
  from: string;
  to: string;
  relationType: string;
  where: string;
}

/** The records of one import, sorted by shape and validated. */
export interface ParsedImport {
  /** Lines of `engram export`, whole, moved to the importing tenant. */
  exported: Memory[];
  /** New memories, as `remember` takes them, with where each was read. */
  created: { input: ParsedMemoryInput; where: string }[];
  entities: EntityLine[];
  relations: RelationLine[];
}

// The graph tools' own schemas, without their per-call caps (a file's entity may have gathered
// hundreds of observations over many calls); fields other than these are ignored, as the
// reference server ignores them.
const observation = GraphEntitySchema.shape.observations.unwrap().element;
const EntityLineSchema = z.object({
  name: GraphEntitySchema.shape.name,
  entityType: GraphEntitySchema.shape.entityType,
  observations: z.array(observation, { error: 'observations must be a list of strings' }).default([]),
});
const RelationLineSchema = z.object(GraphRelationSchema.shape);

const NEW_MEMORY_FIELDS = Object.keys(MemoryInputSchema.shape).filter((field) => field !== 'tenant');
const EXPORT_FIELDS = Object.keys(MemoryRecordSchema.shape).filter((field) => field !== 'context');

/** `line 4`, or `line 4 (array index 2)`. */
export function describePosition(position: RecordPosition): string {
  return `line ${position.line}${position.index === undefined ? '' : ` (array index ${position.index})`}`;
}

/** An import refused before anything was written. */
export function importError(where: string, problem: string, fix: string, cause?: unknown): EngramError {
  return new EngramError('import_failed', `${where}: ${problem}; nothing was imported: ${fix}`, { cause });
}

/**
 * Validates every record before anything is touched and sorts them by shape. Every memory lands
 * in `tenant`: a tenant is an isolation boundary, not data.
 */
export function parseImport(records: readonly unknown[], tenant: string, options: ImportOptions = {}): ParsedImport {
  const where = (index: number) => describePosition(options.positions?.[index] ?? { line: options.lines?.[index] ?? index + 1 });
  const parsed: ParsedImport = { exported: [], created: [], entities: [], relations: [] };
  const seen = new Map<string, string>();
  records.forEach((record, index) => {
    const at = where(index);
    const shape = shapeOf(record, at);
    if (shape === 'entity') parsed.entities.push({ ...parseWith(EntityLineSchema, record, at, 'an entity line'), where: at });
    else if (shape === 'relation')
      parsed.relations.push({ ...parseWith(RelationLineSchema, record, at, 'a relation line'), where: at });
    else if (shape === 'memory') parsed.created.push({ input: parseNewMemory(record as object, at), where: at });
    else {
      const memory = parseExported(record as Record<string, unknown>, at);
      const first = seen.get(memory.id);
      if (first !== undefined) {
        throw importError(at, `id ${memory.id} already appears on ${first}`, 'keep one of the two records');
      }
      seen.set(memory.id, at);
      parsed.exported.push({ ...memory, tenant });
    }
  });
  return parsed;
}

type Shape = 'exported' | 'memory' | 'entity' | 'relation';

function shapeOf(record: unknown, at: string): Shape {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw importError(
      at,
      `a record must be a JSON object, not ${record === null ? 'null' : Array.isArray(record) ? 'a list' : typeof record}`,
      'write one object per line, e.g. {"text": "Deploys happen on Tuesdays", "kind": "fact"}',
    );
  }
  if ('type' in record) {
    const type = (record as { type: unknown }).type;
    if (type === 'entity' || type === 'relation') return type;
    const kind = typeof type === 'string' && (KINDS as readonly string[]).includes(type);
    throw importError(
      at,
      `type ${JSON.stringify(type)} is neither "entity" nor "relation"`,
      kind
        ? `a memory has no type field: write "kind": ${JSON.stringify(type)} instead`
        : 'a knowledge-graph line has "type": "entity" or "relation"; a memory has no type field',
    );
  }
  return 'id' in record ? 'exported' : 'memory';
}

function parseWith<T extends z.ZodType>(schema: T, record: unknown, at: string, what: string): z.output<T> {
  const result = schema.safeParse(record);
  if (!result.success) throw importError(at, `${what}: ${describeIssues(result.error)}`, 'fix this line and import again');
  return result.data;
}

/** A new memory, read exactly as `POST /v1/memories` reads its body; its tenant is the importer's. */
function parseNewMemory(record: object, at: string): ParsedMemoryInput {
  const result = MemoryInputSchema.safeParse(record);
  if (!result.success) {
    const unknown = result.error.issues.some((issue) => issue.code === 'unrecognized_keys');
    throw importError(
      at,
      describeIssues(result.error),
      unknown
        ? `a new memory takes only ${NEW_MEMORY_FIELDS.join(', ')} (and a line of engram export has an id)`
        : 'fix this line and import again',
    );
  }
  const { tenant: _tenant, ...input } = result.data;
  return input;
}

/** A line of `engram export`: every field, as it was written. */
function parseExported(record: Record<string, unknown>, at: string): Memory {
  const missing = EXPORT_FIELDS.filter((field) => !(field in record));
  if (missing.length > 0) {
    const lacks = missing.length <= 3 ? missing.join(', ') : `${missing.length} of them (${missing.slice(0, 3).join(', ')}, …)`;
    throw importError(
      at,
      `a record with an id is read as a line of engram export, which has every field, and this one lacks ${lacks}`,
      'leave the id out to import it as a new memory (only text is required), or import the file engram export wrote',
    );
  }
  const result = MemoryRecordSchema.safeParse(record);
  if (!result.success) throw importError(at, describeIssues(result.error), 'fix this line and import again');
  return result.data;
}
