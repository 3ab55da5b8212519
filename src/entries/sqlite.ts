/**
 * `engram/sqlite`: the embedded SQLite backend, for a program that opens the store itself
 * (`openEngram({ store: openSqliteStore(file, options) })`). `openEngram({ path })` opens the
 * same store; importing this entry loads better-sqlite3 and sqlite-vec.
 */
export type { SqliteStoreOptions } from '../engram/sqlite-driver.js';
export { openSqliteStore } from '../engram/sqlite-driver.js';
