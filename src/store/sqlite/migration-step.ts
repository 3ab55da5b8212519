/** One schema step of the SQLite store: its version, what it adds, and how (migrations.ts runs them). */
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}
