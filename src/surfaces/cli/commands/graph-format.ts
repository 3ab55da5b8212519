/**
 * How `engram graph` prints the knowledge graph for a person: a block per entity — its name
 * and type, its observations, then the relations that touch it among those shown — and the
 * one-line answers of the commands that change it.
 */
import type { GraphEntity, GraphRelation, GraphView } from '../../../entries/tools.js';

/** `Alice (person)`, its observations as `- …`, its relations as `→ works_at Acme` / `← manages Bob`. */
export function entityBlock(entity: GraphEntity, relations: readonly GraphRelation[]): string {
  const key = entity.name.toLowerCase();
  const lines = [`${entity.name} (${entity.entityType})`, ...entity.observations.map((text) => `  - ${text}`)];
  for (const relation of relations) {
    if (relation.from.toLowerCase() === key) lines.push(`  → ${relation.relationType} ${relation.to}`);
    else if (relation.to.toLowerCase() === key) lines.push(`  ← ${relation.from} ${relation.relationType}`);
  }
  return lines.join('\n');
}

/** Every entity of `view` as a block, separated by blank lines. */
export function graphBlocks(view: GraphView): string {
  return view.entities.map((entity) => entityBlock(entity, view.relations)).join('\n\n');
}

/** `Alice works_at Acme`. */
export function relationLine(relation: GraphRelation): string {
  return `${relation.from} ${relation.relationType} ${relation.to}`;
}

/** `1 entity`, `2 entities`. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What `engram graph delete` did: `deleted Acme and its relations`, and for each name not in the
 * graph `there is no entity Globex in the graph: nothing to delete` (see engram graph list).
 */
export function deletedLine(deleted: readonly string[], notFound: readonly string[]): string {
  const lines = [];
  if (deleted.length > 0) lines.push(`deleted ${deleted.join(', ')} and ${deleted.length === 1 ? 'its' : 'their'} relations`);
  const missing = notFound.map((name) => `there is no entity ${name} in the graph: nothing to delete`);
  if (missing.length > 0) lines.push(...missing, '(engram graph list or engram graph search NAME shows the entities)');
  return lines.join('\n');
}
