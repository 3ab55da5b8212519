/**
 * The PostgreSQL driver as the facade and `engram/postgres` open it. With the doctor's
 * examination, this module is the only way from the facade to `pg`; `openEngram` and
 * `doctorDatabase` import it only when config `store.url` names a PostgreSQL database
 * (open-store.ts).
 */
import { PostgresDoctor } from '../store/postgres/doctor.js';
import { PostgresStore } from '../store/postgres/postgres-store.js';
import type { Store } from '../store/store.js';
import type { StoreDoctor } from '../store/store-doctor.js';

/** How to connect. Everything is optional. */
export interface PostgresStoreOptions {
  /** Connections held at most. @default 10 (config `store.pool_size`) */
  poolSize?: number;
}

/**
 * Connects to the PostgreSQL database at `url` (`postgres://user:password@host:5432/database`),
 * migrates it to the current schema and resolves to it as a `Store`. An unreachable server or a
 * bad URL is an `EngramError` that names the URL without its password.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  return new PostgresStore(url, { max: options.poolSize }).open();
}

/** The doctor's examination of the PostgreSQL database at `url`. */
export async function openPostgresDoctor(url: string): Promise<StoreDoctor> {
  return PostgresDoctor.open(url);
}
