/**
 * Recording what extraction found in one memory: its entities upserted (as extracted ones), its
 * mentions replaced, and the relations it states replaced, so re-extracting an edited memory
 * leaves exactly the new facts behind: an extracted entity only the old text held is removed
 * (graph-unheld.ts), and a recorded failure of the memory is cleared. A relation the memory
 * still states keeps its row (and id). The caller wraps it in a transaction.
 */
import { InvalidInputError } from '../../errors.js';
import { entityKey, type MentionRole } from '../../model/graph.js';
import type { GraphExtraction } from '../graph-store.js';
import { upsertEntity } from './graph-entities.js';
import { clearExtractionFailures } from './graph-failures.js';
import { replaceMentions } from './graph-mentions.js';
import { insertRelation, memoryRowidOf, type ResolvedRelation } from './graph-relations.js';
import { msOrNull } from './graph-rows.js';
import { entitiesHeldBy, removeUnheldEntities } from './graph-unheld.js';
import { all, get, type Program, run } from './session.js';
import { sql } from './sql.js';

/** Records one memory's extraction; returns false when the memory is not stored. */
export function* recordExtraction(tenant: string, extraction: GraphExtraction, at: number): Program<boolean> {
  const memoryRowid = yield* memoryRowidOf(tenant, extraction.memoryId);
  if (memoryRowid === null) return false;
  const held = yield* entitiesHeldBy([memoryRowid]);
  const known = new Map<string, number>();
  for (const input of extraction.entities) {
    known.set(entityKey(input.name), (yield* upsertEntity(tenant, { ...input, origin: 'extracted' }, at)).rowid);
  }
  /** Entity rowids by name: this extraction's entities first, then stored names, then aliases. */
  function* resolve(name: string): Program<number> {
    const key = entityKey(name);
    const rowid =
      known.get(key) ??
      (yield* get<{ rowid: number }>(
        sql`SELECT rowid FROM (
            SELECT rowid, 0 AS via FROM entities WHERE tenant = ${tenant} AND name_key = ${key}
            UNION ALL SELECT entity_rowid, 1 FROM entity_aliases WHERE tenant = ${tenant} AND alias_key = ${key}
          ) e ORDER BY via, rowid LIMIT 1`,
      ))?.rowid;
    if (rowid === undefined) throw new InvalidInputError(`extraction names "${name}", which is no entity of tenant ${tenant}`);
    known.set(key, rowid);
    return rowid;
  }

  const mentions: { entityRowid: number; role: MentionRole }[] = [];
  for (const { name, role } of extraction.mentions) mentions.push({ entityRowid: yield* resolve(name), role });
  yield* replaceMentions(memoryRowid, mentions);

  const stated: ResolvedRelation[] = [];
  for (const relation of extraction.relations) {
    stated.push({
      id: relation.id,
      fromRowid: yield* resolve(relation.from),
      toRowid: yield* resolve(relation.to),
      type: relation.type,
      memoryRowid,
      validFrom: msOrNull(relation.validFrom),
    });
  }
  const keyOf = (r: { fromRowid: number; toRowid: number; type: string }) => JSON.stringify([r.fromRowid, r.toRowid, r.type]);
  const before = yield* all<{ rowid: number; fromRowid: number; toRowid: number; type: string }>(
    sql`SELECT rowid, from_rowid AS "fromRowid", to_rowid AS "toRowid", type FROM relations WHERE memory_rowid = ${memoryRowid}`,
  );
  const still = new Set(stated.map(keyOf));
  const kept = new Set<string>();
  for (const old of before) {
    if (still.has(keyOf(old))) kept.add(keyOf(old));
    else yield* run(sql`DELETE FROM relations WHERE rowid = ${old.rowid}`);
  }
  for (const relation of stated) {
    if (!kept.has(keyOf(relation))) yield* insertRelation(tenant, relation, at);
  }
  yield* clearExtractionFailures([memoryRowid]);
  yield* removeUnheldEntities(held);
  return true;
}
