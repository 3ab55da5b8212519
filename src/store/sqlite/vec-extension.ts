/**
 * sqlite-vec, loaded only where a file still has a table of its kind: before schema 3 the
 * vectors were kept in a `vec0` virtual table, which the upgrade to schema 3 reads and drops,
 * and which the doctor may meet in such a file. Nothing else reads vectors through it (exact
 * scores are computed in JavaScript, ../vector/float-vectors.ts), so an ordinary open loads none.
 */
import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

/** Whether the file has a `vec0` virtual table. */
export function hasVecTable(db: Database.Database): boolean {
  return (
    db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING vec0%'`).get() !==
    undefined
  );
}

/** Loads sqlite-vec into this connection when the file has a `vec0` table; returns whether it did. */
export function loadVecWhereNeeded(db: Database.Database): boolean {
  if (!hasVecTable(db)) return false;
  sqliteVec.load(db);
  return true;
}

/** Loads sqlite-vec into this connection (tests that write a file as schema 2 wrote it). */
export function loadVec(db: Database.Database): void {
  sqliteVec.load(db);
}
