/**
 * `engram doctor` for an SQLite file: examines it part by part (integrity, schema, full-text
 * index, vectors, session tables, graph) and repairs what can be rebuilt without losing a
 * memory. It opens the file itself, without migrating it, so it can look at a file Engram would
 * refuse (a newer schema, a damaged one); examining writes nothing.
 */
import { existsSync, statSync } from 'node:fs';

import Database from 'better-sqlite3';

import { EngramError } from '../../errors.js';
import type { Memory } from '../../model/memory.js';
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { memoryVectorKey } from '../embedding-cache.js';
import { driverPart, graphPart, sessionsPart } from '../sql-core/doctor-parts.js';
import { type MemoryRow, rowToMemory } from '../sql-core/rows.js';
import { WITHOUT_VECTOR } from '../sql-core/vector-faults.js';
import type { VectorIndexInfo } from '../store.js';
import type { Examination, StoreDoctor } from '../store-doctor.js';
import { fullTextPart } from './doctor-full-text.js';
import { examineIntegrity, rebuildIndexes } from './doctor-integrity.js';
import { type DoctorPart, hasTable, REPAIR_COMMAND } from './doctor-part.js';
import { recoveryFix } from './doctor-recovery.js';
import { examineSchema, upgradeSchema } from './doctor-schema.js';
import { schemaObjectsPart } from './doctor-schema-objects.js';
import { examineSpace, reclaimSpace } from './doctor-space.js';
import { vectorEntriesPart } from './doctor-vector-entries.js';
import { vectorsPart } from './doctor-vectors.js';
import { LATEST_VERSION } from './migrations.js';
import { sqliteSession } from './sqlite-session.js';
import { BUSY_TIMEOUT_MS, isDamage, storageError } from './storage-error.js';
import { loadVecWhereNeeded } from './vec-extension.js';
import { recordedEmbedder } from './vector-faults.js';
import { VectorTable } from './vector-table.js';

// The schema's objects first: the parts after them mend what a missing trigger let drift.
const PARTS: readonly DoctorPart[] = [
  schemaObjectsPart,
  fullTextPart,
  vectorsPart,
  vectorEntriesPart,
  driverPart(sessionsPart, sqliteSession),
  driverPart(graphPart, sqliteSession),
];

/** The doctor's hold on one database file. */
export class SqliteDoctor implements StoreDoctor {
  readonly file: string;
  private readonly db: Database.Database;

  private constructor(file: string, db: Database.Database) {
    this.file = file;
    this.db = db;
  }

  /** Opens an existing file for examination; nothing is written until `repair`. */
  static open(file: string): SqliteDoctor {
    if (!existsSync(file)) {
      throw new EngramError('database_missing', `no Engram database at ${file}: point --db at an existing file`);
    }
    if (statSync(file).isDirectory()) {
      throw new EngramError('database_invalid', `${file} is a directory: give the database file's path`);
    }
    let db: Database.Database;
    try {
      db = new Database(file, { fileMustExist: true });
    } catch (cause) {
      throw storageError(cause, file);
    }
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    } catch (cause) {
      db.close();
      throw storageError(cause, file);
    }
    loadVecForExamination(db, file);
    return new SqliteDoctor(file, db);
  }

  /** Examines every part: one finding per fault, or one `ok` per part. */
  examine(): Examination {
    const integrity = examineIntegrity(this.db);
    const schema = examineSchema(this.db);
    const repairable = schema.readable && integrity.indexesOnly;
    const damage =
      integrity.finding.status === 'problem' && integrity.finding.fix === null
        ? { ...integrity.finding, fix: recoveryFix(this.db, this.file, schema.readable) }
        : integrity.finding;
    // A damaged file is still examined part by part where it can be read: the findings say how far.
    const findings = [damage, schema.finding, ...(schema.readable ? [...this.examineParts(), examineSpace(this.db)] : [])];
    return {
      // The repair does not write into this file, so no finding may promise that it will.
      findings: repairable ? findings : findings.map(withoutRepair),
      schemaVersion: schema.version,
      latestSchemaVersion: LATEST_VERSION,
      repairable,
    };
  }

  /**
   * Repairs what can be repaired in place, each step in its own transaction: damaged indexes,
   * an older schema, then each part's faults. Returns what changed; a file with other damage, or
   * of a newer or foreign schema, is left untouched. Each transaction is IMMEDIATE, so it waits
   * for another process's write lock up front (in WAL mode a read turned write fails at once).
   */
  repair(): DoctorRepair[] {
    const integrity = examineIntegrity(this.db);
    const schema = examineSchema(this.db);
    if (!schema.readable || !integrity.indexesOnly || schema.version === null) return [];
    const repairs: DoctorRepair[] = [];
    if (!integrity.ok) repairs.push(this.db.transaction(() => rebuildIndexes(this.db)).immediate());
    if (schema.version < LATEST_VERSION) repairs.push(upgradeSchema(this.db, this.file, schema.version));
    for (const part of this.partsPresent()) {
      if (part.examine(this.db).some((finding) => finding.status === 'problem')) {
        repairs.push(...this.db.transaction(() => part.repair(this.db)).immediate());
      }
    }
    repairs.push(...reclaimSpace(this.db)); // last, outside any transaction: VACUUM cannot run in one
    return repairs;
  }

  /** The embedder recorded for the vectors; null when none is, or when the record cannot be read. */
  recordedEmbedder(): VectorIndexInfo | null {
    if (!hasTable(this.db, 'engram_meta')) return null;
    const recorded = recordedEmbedder(this.db);
    return 'info' in recorded ? recorded.info : null;
  }

  /** Memories that should have a vector and have none (the facade embeds them). */
  memoriesWithoutVector(): Memory[] {
    if (!hasTable(this.db, 'memory_embeddings')) return [];
    const rows = this.db.prepare(`SELECT m.* ${WITHOUT_VECTOR} ORDER BY m.rowid`).all() as MemoryRow[];
    return rows.map(rowToMemory);
  }

  /**
   * Stores these memories' vectors, in one transaction, and returns how many it stored. A memory
   * that another process deleted, or gave a vector, while these were being embedded is skipped:
   * its vector is newer than this one.
   */
  writeVectors(entries: readonly { id: string; vector: Float32Array }[]): number {
    const table = new VectorTable(this.db, { floatBytes: 0 });
    const rowOf = this.db.prepare(
      `SELECT m.rowid, m.tenant, m.text, m.context FROM memories m
       WHERE m.id = ? AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.rowid = m.rowid)`,
    );
    return this.db
      .transaction(() => {
        let written = 0;
        for (const { id, vector } of entries) {
          const row = rowOf.get(id) as { rowid: number; tenant: string; text: string; context: string | null } | undefined;
          if (!row) continue;
          table.write(row.rowid, id, row.tenant, vector, memoryVectorKey(row));
          written += 1;
        }
        return written;
      })
      .immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private examineParts(): DoctorFinding[] {
    return this.partsPresent().flatMap((part) => {
      try {
        return part.examine(this.db);
      } catch (error) {
        // Locked, read-only, out of space: the caller's problem to hear about, not a finding.
        if (!isDamage(error)) throw storageError(error, this.file);
        return [
          {
            check: part.check,
            status: 'problem' as const,
            message: `could not be checked: ${(error as Error).message}`,
            fix: 'see the integrity finding',
          },
        ];
      }
    });
  }

  private partsPresent(): DoctorPart[] {
    return PARTS.filter((part) => part.tables.every((table) => hasTable(this.db, table)));
  }
}

/** A finding of a file the repair leaves alone: its fix waits for the integrity finding's. */
function withoutRepair(finding: DoctorFinding): DoctorFinding {
  if (!finding.fix?.startsWith(REPAIR_COMMAND)) return finding;
  return { ...finding, fix: 'once the damage SQLite found is dealt with (see the integrity finding)' };
}

/**
 * sqlite-vec for a file of schema 2 or before, which still has its vec0 table. A file whose
 * schema cannot be read is left as it is: the examination says what is wrong with it.
 */
function loadVecForExamination(db: Database.Database, file: string): void {
  let readable = true;
  try {
    db.prepare(`SELECT count(*) FROM sqlite_master`).get();
  } catch {
    readable = false; // damage, reported by the integrity check
  }
  if (!readable) return;
  try {
    loadVecWhereNeeded(db);
  } catch (cause) {
    db.close();
    throw storageError(cause, file);
  }
}
