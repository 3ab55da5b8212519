/**
 * Recording what extraction found in one memory, in PostgreSQL: its entities upserted (as
 * extracted ones), its mentions replaced and the relations it states replaced (an unchanged one
 * keeps its row and id), an extracted entity only the old text held removed and a recorded
 * failure cleared, by the rules of ../sqlite/graph-extraction.ts. The caller wraps it in a
 * transaction.
 */
import { InvalidInputError } from '../../errors.js';
import { entityKey } from '../../model/graph.js';
import type { GraphExtraction } from '../graph-store.js';
import { msOrNull } from '../sqlite/graph-rows.js';
import type { Queryable } from './connection.js';
import { upsertEntity } from './graph-entities.js';
import { clearExtractionFailures } from './graph-failures.js';
import { insertRelation, memoryRowidOf, replaceMentions } from './graph-relations.js';
import { entitiesHeldBy, removeUnheldEntities } from './graph-unheld.js';

/** Records one memory's extraction; returns false when the memory is not stored. */
export async function recordExtraction(db: Queryable, tenant: string, extraction: GraphExtraction, at: number): Promise<boolean> {
  const memoryRowid = await memoryRowidOf(db, tenant, extraction.memoryId);
  if (memoryRowid === null) return false;
  const held = await entitiesHeldBy(db, [memoryRowid]);
  const known = new Map<string, number>();
  for (const input of extraction.entities) {
    known.set(entityKey(input.name), (await upsertEntity(db, tenant, { ...input, origin: 'extracted' }, at)).rowid);
  }
  const resolve = async (name: string): Promise<number> => {
    const key = entityKey(name);
    const held = known.get(key);
    if (held !== undefined) return held;
    const found = await db.query(
      `SELECT rowid FROM (
         SELECT rowid, 0 AS via FROM entities WHERE tenant = $1 AND name_key = $2
         UNION ALL SELECT entity_rowid, 1 FROM entity_aliases WHERE tenant = $1 AND alias_key = $2
       ) e ORDER BY via, rowid LIMIT 1`,
      [tenant, key],
    );
    const rowid = (found.rows[0] as { rowid: number } | undefined)?.rowid;
    if (rowid === undefined) throw new InvalidInputError(`extraction names "${name}", which is no entity of tenant ${tenant}`);
    known.set(key, rowid);
    return rowid;
  };

  const mentions: { entityRowid: number; role: (typeof extraction.mentions)[number]['role'] }[] = [];
  for (const { name, role } of extraction.mentions) mentions.push({ entityRowid: await resolve(name), role });
  await replaceMentions(db, memoryRowid, mentions);

  const stated = [];
  for (const relation of extraction.relations) {
    stated.push({
      id: relation.id,
      fromRowid: await resolve(relation.from),
      toRowid: await resolve(relation.to),
      type: relation.type,
      memoryRowid,
      validFrom: msOrNull(relation.validFrom),
    });
  }
  const keyOf = (r: { fromRowid: number; toRowid: number; type: string }) => JSON.stringify([r.fromRowid, r.toRowid, r.type]);
  const before = await db.query(
    `SELECT rowid, from_rowid AS "fromRowid", to_rowid AS "toRowid", type FROM relations WHERE memory_rowid = $1`,
    [memoryRowid],
  );
  const still = new Set(stated.map(keyOf));
  const kept = new Set<string>();
  for (const old of before.rows as { rowid: number; fromRowid: number; toRowid: number; type: string }[]) {
    if (still.has(keyOf(old))) kept.add(keyOf(old));
    else await db.query(`DELETE FROM relations WHERE rowid = $1`, [old.rowid]);
  }
  for (const relation of stated) {
    if (!kept.has(keyOf(relation))) await insertRelation(db, tenant, relation, at);
  }
  await clearExtractionFailures(db, [memoryRowid]);
  await removeUnheldEntities(db, held);
  return true;
}
