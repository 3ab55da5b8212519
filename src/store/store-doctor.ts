/**
 * What `doctorDatabase` asks of a backend's doctor (the SQLite file's, store/sqlite/doctor.ts, or
 * the PostgreSQL database's, store/postgres/doctor.ts): examine the parts, repair what can be
 * rebuilt, and give what re-embedding the memories that lost their vector needs. A backend
 * answers synchronously or with a promise; the facade awaits either.
 */
import type { Memory } from '../model/memory.js';
import type { DoctorFinding, DoctorRepair } from './doctor-report.js';
import type { VectorIndexInfo } from './store.js';

/** What one examination found. */
export interface Examination {
  findings: DoctorFinding[];
  schemaVersion: number | null;
  latestSchemaVersion: number;
  /** Whether `repair` may write into the database: an Engram schema this build reads, with nothing it must leave alone. */
  repairable: boolean;
}

/** A backend's doctor, holding one database open until `close`. */
export interface StoreDoctor {
  /** Examines every part: one finding per fault, or one `ok` per part. Writes nothing. */
  examine(): Examination | Promise<Examination>;
  /** Repairs what can be repaired without losing a memory; returns what changed. */
  repair(): DoctorRepair[] | Promise<DoctorRepair[]>;
  /** The embedder recorded for the vectors; null when none is, or when the record cannot be read. */
  recordedEmbedder(): VectorIndexInfo | null | Promise<VectorIndexInfo | null>;
  /** Memories that should have a vector and have none. */
  memoriesWithoutVector(): Memory[] | Promise<Memory[]>;
  /** Stores these memories' vectors, skipping a memory gone or given a vector meanwhile; returns how many. */
  writeVectors(entries: readonly { id: string; vector: Float32Array }[]): number | Promise<number>;
  close(): void | Promise<void>;
}
