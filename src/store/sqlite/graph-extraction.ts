/**
 * Recording what extraction found in one memory: its entities upserted (as extracted ones), its
 * mentions replaced, and the relations it states replaced, so re-extracting an edited memory
 * leaves exactly the new facts behind: an extracted entity only the old text held is removed
 * (graph-unheld.ts), and a recorded failure of the memory is cleared. A relation the memory
 * still states keeps its row (and id). The caller wraps it in a transaction.
 */
import type Database from 'better-sqlite3';

import { InvalidInputError } from '../../errors.js';
import { entityKey } from '../../model/graph.js';
import type { GraphExtraction } from '../graph-store.js';
import { upsertEntity } from './graph-entities.js';
import { clearExtractionFailures } from './graph-failures.js';
import { replaceMentions } from './graph-mentions.js';
import { insertRelation, memoryRowidOf } from './graph-relations.js';
import { msOrNull } from './graph-rows.js';
import { entitiesHeldBy, removeUnheldEntities } from './graph-unheld.js';

/** Records one memory's extraction; returns false when the memory is not stored. */
export function recordExtraction(db: Database.Database, tenant: string, extraction: GraphExtraction, at: number): boolean {
  const memoryRowid = memoryRowidOf(db, tenant, extraction.memoryId);
  if (memoryRowid === null) return false;
  const held = entitiesHeldBy(db, [memoryRowid]);
  const known = new Map<string, number>();
  for (const input of extraction.entities) {
    known.set(entityKey(input.name), upsertEntity(db, tenant, { ...input, origin: 'extracted' }, at).rowid);
  }
  const resolve = entityResolver(db, tenant, known);

  replaceMentions(
    db,
    memoryRowid,
    extraction.mentions.map(({ name, role }) => ({ entityRowid: resolve(name), role })),
  );

  const stated = extraction.relations.map((relation) => ({
    id: relation.id,
    fromRowid: resolve(relation.from),
    toRowid: resolve(relation.to),
    type: relation.type,
    memoryRowid,
    validFrom: msOrNull(relation.validFrom),
  }));
  const keyOf = (r: { fromRowid: number; toRowid: number; type: string }) => JSON.stringify([r.fromRowid, r.toRowid, r.type]);
  const before = db
    .prepare(`SELECT rowid, from_rowid AS fromRowid, to_rowid AS toRowid, type FROM relations WHERE memory_rowid = ?`)
    .all(memoryRowid) as { rowid: number; fromRowid: number; toRowid: number; type: string }[];
  const still = new Set(stated.map(keyOf));
  const kept = new Set<string>();
  const drop = db.prepare(`DELETE FROM relations WHERE rowid = ?`);
  for (const old of before) {
    if (still.has(keyOf(old))) kept.add(keyOf(old));
    else drop.run(old.rowid);
  }
  for (const relation of stated) {
    if (!kept.has(keyOf(relation))) insertRelation(db, tenant, relation, at);
  }
  clearExtractionFailures(db, [memoryRowid]);
  removeUnheldEntities(db, held);
  return true;
}

/** Entity rowids by name: this extraction's entities first, then stored names, then aliases. */
function entityResolver(db: Database.Database, tenant: string, known: Map<string, number>): (name: string) => number {
  const byName = db.prepare(`SELECT rowid FROM entities WHERE tenant = ? AND name_key = ?`).pluck();
  const byAlias = db
    .prepare(`SELECT entity_rowid FROM entity_aliases WHERE tenant = ? AND alias_key = ? ORDER BY entity_rowid LIMIT 1`)
    .pluck();
  return (name) => {
    const key = entityKey(name);
    const rowid =
      known.get(key) ?? (byName.get(tenant, key) as number | undefined) ?? (byAlias.get(tenant, key) as number | undefined);
    if (rowid === undefined) throw new InvalidInputError(`extraction names "${name}", which is no entity of tenant ${tenant}`);
    known.set(key, rowid);
    return rowid;
  };
}
