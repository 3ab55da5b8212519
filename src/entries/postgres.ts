/**
 * `engram/postgres`: the PostgreSQL backend, for a program that opens the store itself
 * (`openEngram({ store: await openPostgresStore(url) })`). `openEngram` with config `store.url`
 * opens the same store; importing this entry loads `pg`.
 */
export type { PostgresStoreOptions } from '../engram/postgres-driver.js';
export { openPostgresStore } from '../engram/postgres-driver.js';
