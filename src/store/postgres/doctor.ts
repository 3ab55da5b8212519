/**
 * `engram doctor` for a PostgreSQL database: examines it part by part (the server, the schema,
 * the full-text words, the vectors, the session tables, the graph) and repairs what can be
 * rebuilt without losing a memory. It connects without migrating, so it can look at a database
 * Engram would refuse (a newer schema); the examination runs in one read-only transaction, so it
 * sees one snapshot and cannot write. Each part's repair runs in its own transaction.
 */
import type pg from 'pg';

import type { Memory } from '../../model/memory.js';
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { driverPart, graphPart, sessionsPart } from '../sql-core/doctor-parts.js';
import { upgradedSchema } from '../sql-core/doctor-schema-version.js';
import { MEMORY_COLUMNS, type MemoryRow, rowToMemory } from '../sql-core/rows.js';
import { WITHOUT_VECTOR } from '../sql-core/vector-faults.js';
import type { VectorIndexInfo } from '../store.js';
import type { Examination, StoreDoctor } from '../store-doctor.js';
import { binaryCode } from '../vector/quantized-index.js';
import { connectionError, createPool, type Queryable, reportingFailures, withClient } from './connection.js';
import { fullTextPart } from './doctor-full-text.js';
import { examineIntegrity } from './doctor-integrity.js';
import { hasTables, type PostgresDoctorPart } from './doctor-part.js';
import { examineSchema } from './doctor-schema.js';
import { countVectorChange, recordedEmbedder, vectorsPart } from './doctor-vectors.js';
import { migratePostgres, POSTGRES_LATEST_VERSION } from './migrations.js';
import { preparePgvector } from './pgvector.js';
import { postgresSession } from './postgres-session.js';
import { bytesToVector, vectorToBytes } from './vector-table.js';

const PARTS: readonly PostgresDoctorPart[] = [
  fullTextPart,
  vectorsPart,
  driverPart(sessionsPart, postgresSession),
  driverPart(graphPart, postgresSession),
];
/** The doctor runs one thing at a time; a second connection serves `migratePostgres`'s own. */
const POOL_SIZE = 2;

/** The doctor's hold on one PostgreSQL database. */
export class PostgresDoctor implements StoreDoctor {
  readonly url: string;
  private readonly pool: pg.Pool;
  private readonly queries: Queryable;

  private constructor(url: string, pool: pg.Pool) {
    this.url = url;
    this.pool = pool;
    this.queries = reportingFailures(pool, url);
  }

  /** Connects to the database; an unreachable server or refused credentials reject here, in one line. */
  static async open(url: string): Promise<PostgresDoctor> {
    const doctor = new PostgresDoctor(url, createPool(url, { max: POOL_SIZE }));
    try {
      await doctor.queries.query('SELECT 1');
    } catch (error) {
      await doctor.close();
      throw error;
    }
    return doctor;
  }

  async examine(): Promise<Examination> {
    return this.inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (db) => {
      const integrity = await examineIntegrity(db);
      const schema = await examineSchema(db);
      const findings: DoctorFinding[] = [integrity, schema.finding];
      if (schema.readable) {
        for (const part of await partsPresent(db)) findings.push(...(await part.examine(db)));
      }
      return {
        findings,
        schemaVersion: schema.version,
        latestSchemaVersion: POSTGRES_LATEST_VERSION,
        repairable: schema.readable,
      };
    });
  }

  /** Upgrades an older schema, then repairs each part that has a problem, each in its own transaction. */
  async repair(): Promise<DoctorRepair[]> {
    const schema = await examineSchema(this.queries);
    if (!schema.readable || schema.version === null) return [];
    const repairs: DoctorRepair[] = [];
    if (schema.version < POSTGRES_LATEST_VERSION) {
      repairs.push(upgradedSchema(schema.version, await migratePostgres(this.pool, this.url)));
    }
    for (const part of await partsPresent(this.queries)) {
      repairs.push(
        ...(await this.inTransaction('BEGIN', async (db) => {
          const found = await part.examine(db);
          return found.some((finding) => finding.status === 'problem') ? part.repair(db) : [];
        })),
      );
    }
    return repairs;
  }

  async recordedEmbedder(): Promise<VectorIndexInfo | null> {
    if (!(await hasTables(this.queries, ['engram_meta']))) return null;
    const recorded = await recordedEmbedder(this.queries);
    return 'info' in recorded ? recorded.info : null;
  }

  async memoriesWithoutVector(): Promise<Memory[]> {
    if (!(await hasTables(this.queries, ['memories', 'memory_embeddings']))) return [];
    const columns = MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ');
    const result = await this.queries.query(`SELECT m.rowid, ${columns} ${WITHOUT_VECTOR} ORDER BY m.rowid`);
    return (result.rows as MemoryRow[]).map(rowToMemory);
  }

  /**
   * Stores these memories' vectors in one transaction and returns how many it stored. A memory
   * another process deleted, or gave a vector, while these were being embedded is skipped: its
   * vector is newer than this one.
   */
  async writeVectors(entries: readonly { id: string; vector: Float32Array }[]): Promise<number> {
    return this.inTransaction('BEGIN', async (db) => {
      let written = 0;
      for (const { id, vector } of entries) {
        const result = await db.query(
          `INSERT INTO memory_embeddings (rowid, tenant, vector, code) SELECT m.rowid, m.tenant, $2, $3 FROM memories m
           WHERE m.id = $1 ON CONFLICT (rowid) DO NOTHING`,
          [id, vectorToBytes(vector), Buffer.from(binaryCode(vector).buffer)],
        );
        written += result.rowCount ?? 0;
      }
      if (written > 0) {
        // With pgvector, the new rows' vector column is filled too, or approximate search misses them.
        await preparePgvector(db, bytesToVector);
        await countVectorChange(db);
      }
      return written;
    });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  /** Runs `use` in one transaction begun with `begin` on one pooled connection, failures in one line. */
  private async inTransaction<T>(begin: string, use: (db: Queryable) => Promise<T>): Promise<T> {
    return withClient(this.pool, this.url, async (client) => {
      const db = reportingFailures(client, this.url);
      await db.query(begin);
      try {
        const result = await use(db);
        await db.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw connectionError(error, this.url);
      }
    });
  }
}

/** The parts whose tables the database has. */
async function partsPresent(db: Queryable): Promise<PostgresDoctorPart[]> {
  const present: PostgresDoctorPart[] = [];
  for (const part of PARTS) if (await hasTables(db, part.tables)) present.push(part);
  return present;
}
