/**
 * `doctorDatabase`: checks an Engram database — a SQLite file, or the PostgreSQL database config
 * `store.url` names — and, with `repair`, fixes what can be rebuilt without losing a memory, then
 * checks again. Beside the backend's own examination (store/sqlite/doctor.ts,
 * store/postgres/doctor.ts) it asks whether the configured embedder made the stored vectors, and
 * when it did, embeds the memories that have lost theirs.
 */
import { parseConfig } from '../config/load.js';
import { redactUrl } from '../config/redact-url.js';
import type { ConfigInput, EngramConfig } from '../config/schema.js';
import { createEmbedderFromConfig } from '../embedding/create-embedder.js';
import type { Embedder } from '../embedding/embedder.js';
import { describeIndex, describeMismatch, NO_EMBEDDER_ID } from '../embedding/index-compatibility.js';
import { EmbedderMismatchError } from '../errors.js';
import { DOCTOR_CHECKS, type DoctorFinding, type DoctorRepair, type DoctorReport } from '../store/doctor-report.js';
import type { Examination, StoreDoctor } from '../store/store-doctor.js';
import { embedMemories } from './embed-batches.js';

/** What to check, and whether to repair. */
export interface DoctorOptions {
  /** Database file; unused when config `store.url` names a PostgreSQL database. @default config `store.path` (".engram/engram.db") */
  path?: string;
  /** Settings of `engram.toml`'s shape; `[embedding]` names the embedder to compare and re-embed with. */
  config?: ConfigInput;
  /** The embedder the vectors should belong to. @default from config `[embedding]` */
  embedder?: Embedder | null;
  /** Repair what can be repaired without losing a memory, then check again. @default false */
  repair?: boolean;
}

/**
 * Checks a database: the file's integrity (SQLite) or that the server answers (PostgreSQL), the
 * schema version, both indexes against the memories, the embedder, orphaned session rows and
 * broken graph links. A file that does not exist, or a server that cannot be reached, is an
 * error; everything found in a database that can be read is a finding.
 */
export async function doctorDatabase(options: DoctorOptions = {}): Promise<DoctorReport> {
  const config = parseConfig(options.config ?? {}, 'config');
  const postgres = config.store.url !== '';
  const where = postgres ? redactUrl(config.store.url) : (options.path ?? config.store.path);
  // Only the chosen driver is loaded (open-store.ts).
  const doctor: StoreDoctor = postgres
    ? await (await import('./postgres-driver.js')).openPostgresDoctor(config.store.url)
    : (await import('./sqlite-driver.js')).openSqliteDoctor(where);
  let embedder: Embedder | null = null;
  try {
    embedder = options.embedder !== undefined ? options.embedder : createEmbedderFromConfig(config.embedding);
    const before = await examine(doctor, embedder);
    if (!options.repair) return report(where, before, []);
    const repairs = await doctor.repair();
    if (before.repairable) repairs.push(...(await embedMissingVectors(doctor, embedder, config)));
    // Checked again from the start, so the report says what the repair really left.
    return { ...report(where, await examine(doctor, embedder), repairs), before: before.findings };
  } finally {
    await doctor.close();
    if (options.embedder === undefined) await embedder?.close?.();
  }
}

async function examine(doctor: StoreDoctor, embedder: Embedder | null): Promise<Examination> {
  const examination = await doctor.examine();
  const examinedVectors = examination.findings.some((finding) => finding.check === 'vectors');
  const findings = examinedVectors ? [...examination.findings, await examineEmbedder(doctor, embedder)] : examination.findings;
  // In the order of DOCTOR_CHECKS; a stable sort keeps each part's findings in their order.
  findings.sort((a, b) => DOCTOR_CHECKS.indexOf(a.check) - DOCTOR_CHECKS.indexOf(b.check));
  return { ...examination, findings };
}

/** Whether the configured embedder is the one the stored vectors were made with. */
async function examineEmbedder(doctor: StoreDoctor, embedder: Embedder | null): Promise<DoctorFinding> {
  const recorded = await doctor.recordedEmbedder();
  const configured = embedder ? embedder.id : 'none (lexical only)';
  if (recorded === null) {
    return {
      check: 'embedder',
      status: 'ok',
      message: `none recorded yet; the next memory stored records ${configured}`,
      fix: null,
    };
  }
  if (describeMismatch(recorded, embedder) === null) {
    return { check: 'embedder', status: 'ok', message: `${describeIndex(recorded)}, as configured`, fix: null };
  }
  return {
    check: 'embedder',
    status: 'problem',
    message: `the database was indexed with ${describeIndex(recorded)}, but the configured embedder is ${configured}: search and new memories are refused until they agree`,
    fix: `engram reindex re-embeds every memory with the configured embedder; or configure ${recorded.model} again`,
  };
}

/** Embeds the memories that lost their vector, when the configured embedder made the others. */
async function embedMissingVectors(
  doctor: StoreDoctor,
  embedder: Embedder | null,
  config: EngramConfig,
): Promise<DoctorRepair[]> {
  const recorded = await doctor.recordedEmbedder();
  if (embedder === null || recorded === null || recorded.model === NO_EMBEDDER_ID) return [];
  if (describeMismatch(recorded, embedder) !== null) return [];
  const memories = await doctor.memoriesWithoutVector();
  if (memories.length === 0) return [];
  const vectors = await embedMemories(embedder, memories, config.embedding.batch_size * 8);
  // An embedder that learns its size only when it embeds can still differ from the stored vectors.
  const made = vectors[0]?.length;
  if (made !== recorded.dimensions) {
    throw new EmbedderMismatchError(
      `${embedder.id} made vectors of ${made} dimensions, but the database's are of ${recorded.dimensions}: run \`engram reindex\` to re-embed every memory with it`,
    );
  }
  const written = await doctor.writeVectors(memories.map((memory, i) => ({ id: memory.id, vector: vectors[i] as Float32Array })));
  const what = written === 1 ? 'memory' : 'memories';
  return [{ check: 'vectors', message: `embedded ${written} ${what} that had no vector, with ${embedder.id}` }];
}

function report(where: string, examination: Examination, repairs: DoctorRepair[]): DoctorReport {
  return {
    path: where,
    schemaVersion: examination.schemaVersion,
    latestSchemaVersion: examination.latestSchemaVersion,
    healthy: !examination.findings.some((finding) => finding.status === 'problem'),
    findings: examination.findings,
    repairs,
  };
}
