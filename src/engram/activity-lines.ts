/**
 * The words of the daily activity log (seed 003): one line per write, built here from what the
 * write did — a memory remembered or superseding another, fields changed, a memory forgotten or
 * restored, a file imported, the knowledge graph changed. Pure: the facade stamps and stores them.
 */
import type { Memory } from '../model/memory.js';
import type { ActivityEntry, ActivityLabel } from '../model/session.js';
import { summaryOf } from '../tools/fields.js';
import type { GraphEntity, GraphRelation } from '../tools/knowledge-graph.js';
import type { ImportSummary } from './import-records.js';

/** An activity line before the engine stamps it with its tenant and time. */
export type ActivityLine = Omit<ActivityEntry, 'tenant' | 'at'>;

/** Fields an update can change, in the order a change lists them. */
const CHANGEABLE = [
  'text',
  'kind',
  'tier',
  'scope',
  'key',
  'pinned',
  'hardRule',
  'abstract',
  'context',
  'sessionId',
  'source',
  'trust',
  'tags',
  'data',
  'occurredAt',
] as const satisfies readonly (keyof Memory)[];

/** Fields shown by name only: their values are long. */
const LONG = new Set<string>(['text', 'abstract', 'context', 'data']);

/**
 * One line for one `remember`/`rememberMany` call: the memory (`remember`, or `supersede` when it
 * replaced older ones), or a count when the call stored several. A caller's label wins.
 */
export function rememberedLine(memories: readonly Memory[], replaced: readonly Memory[], label?: ActivityLabel): ActivityLine {
  const [only] = memories;
  if (memories.length === 1 && only) {
    const replaces = replaced.length > 0 ? ` (replaces ${replaced.map((memory) => memory.id).join(', ')})` : '';
    return {
      action: label?.action ?? (replaced.length > 0 ? 'supersede' : 'remember'),
      key: label?.key !== undefined ? label.key : only.key,
      memoryId: only.id,
      summary: label?.summary ?? `${only.kind}${only.key ? ` ${only.key}` : ''}: ${summaryOf(only.text)}${replaces}`,
    };
  }
  const superseding = replaced.length > 0 ? `, superseding ${replaced.length}` : '';
  return {
    action: label?.action ?? 'remember',
    key: label?.key ?? null,
    memoryId: null,
    summary:
      label?.summary ??
      `${memories.length} memories${superseding}: ${summaryOf(memories.map((memory) => memory.text).join(' · '))}`,
  };
}

/** One line for `update`: each changed field, with old and new values where they are short. */
export function updatedLine(before: Memory, after: Memory): ActivityLine {
  const changes = CHANGEABLE.flatMap((field) => {
    const [was, is] = [before[field], after[field]];
    if (JSON.stringify(was) === JSON.stringify(is)) return [];
    return [LONG.has(field) ? field : `${field} ${shown(was)} → ${shown(is)}`];
  });
  return {
    action: 'update',
    key: after.key,
    memoryId: after.id,
    summary: `${changes.length > 0 ? `changed ${changes.join(', ')}` : 'nothing changed'}: ${summaryOf(after.text, 60)}`,
  };
}

/** One line for `forget`: archived (still linked) or deleted for good (named by id). */
export function forgottenLine(memory: Memory, hard: boolean, label?: ActivityLabel): ActivityLine {
  return {
    action: label?.action ?? 'forget',
    key: label?.key !== undefined ? label.key : memory.key,
    memoryId: hard ? null : memory.id,
    summary: label?.summary ?? `${hard ? `deleted ${memory.id} for good` : 'archived'}: ${summaryOf(memory.text)}`,
  };
}

/** One line for `restore`. */
export function restoredLine(memory: Memory): ActivityLine {
  return { action: 'restore', key: memory.key, memoryId: memory.id, summary: `restored: ${summaryOf(memory.text)}` };
}

/** One line for a whole import, however many records it read: `imported 25 memories from notes.jsonl`. */
export function importedLine(summary: ImportSummary, from: string | undefined): ActivityLine {
  const parts: string[] = [];
  const { entities, relations, newEntities, newRelations } = summary.graph;
  if (summary.read > 0 || entities + relations === 0) {
    const replaced = summary.replaced > 0 ? `, replaced ${summary.replaced}` : '';
    const skipped = summary.skipped > 0 ? `, skipped ${summary.skipped} already present` : '';
    parts.push(`imported ${share(summary.imported, summary.read, 'memory', 'memories')}${replaced}${skipped}`);
  }
  if (entities + relations > 0) {
    parts.push(
      `imported ${share(newEntities, entities, 'entity', 'entities')} and ${share(newRelations, relations, 'relation', 'relations')} into the knowledge graph`,
    );
  }
  return { action: 'import', key: null, memoryId: null, summary: `${parts.join('; ')}${from ? ` from ${from}` : ''}` };
}

/** `3 memories` when all of them, else `2 of 3 memories`. */
function share(part: number, whole: number, one: string, many: string): string {
  return part === whole ? count(whole, one, many) : `${part} of ${count(whole, one, many)}`;
}

/** The knowledge-graph writes, named as the MCP reference memory server's tools. */
export const graphLines = {
  createEntities: (created: readonly GraphEntity[]): ActivityLine | null =>
    created.length === 0
      ? null
      : graphLine('create_entities', `created ${count(created.length, 'entity', 'entities')}: ${names(created)}`),
  createRelations: (created: readonly GraphRelation[]): ActivityLine | null =>
    created.length === 0
      ? null
      : graphLine('create_relations', `created ${count(created.length, 'relation', 'relations')}: ${relationList(created)}`),
  addObservations: (added: readonly { entityName: string; addedObservations: string[] }[]): ActivityLine | null => {
    const changed = added.filter((change) => change.addedObservations.length > 0);
    const total = changed.reduce((sum, change) => sum + change.addedObservations.length, 0);
    return total === 0
      ? null
      : graphLine(
          'add_observations',
          `added ${count(total, 'observation', 'observations')} to ${summaryOf(changed.map((change) => change.entityName).join(', '))}`,
        );
  },
  deleteEntities: (entityNames: readonly string[]): ActivityLine =>
    graphLine('delete_entities', `deleted the entities named ${summaryOf(entityNames.join(', '))}`),
  deleteObservations: (deletions: readonly { entityName: string }[]): ActivityLine =>
    graphLine('delete_observations', `deleted observations of ${summaryOf(deletions.map((d) => d.entityName).join(', '))}`),
  deleteRelations: (relations: readonly GraphRelation[]): ActivityLine =>
    graphLine('delete_relations', `deleted ${count(relations.length, 'relation', 'relations')}: ${relationList(relations)}`),
};

function graphLine(action: string, summary: string): ActivityLine {
  return { action, key: null, memoryId: null, summary };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function names(entities: readonly GraphEntity[]): string {
  return summaryOf(entities.map((entity) => entity.name).join(', '));
}

function relationList(relations: readonly GraphRelation[]): string {
  return summaryOf(relations.map((relation) => `${relation.from} ${relation.relationType} ${relation.to}`).join('; '));
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.join(', ');
  return String(value);
}
