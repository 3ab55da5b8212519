/**
 * How shared SQL runs on a synchronous driver (better-sqlite3) and an asynchronous one (pg)
 * alike. A statement of several steps is written once as a `Program`: a generator that yields
 * each statement and is handed its rows back. A `Session` runs programs for one connection: a
 * sync session answers each step at once, so a program runs to its end with no microtask in
 * between (SQLite's write transactions and read caches rely on it); an async session awaits
 * each step. A generator cannot `await`, so TypeScript itself keeps shared code off promises.
 * Why generators and not two copies or promise-returning helpers: docs/decisions/sql-core-session.md.
 */
import { type Dialect, render, type Rendered } from './dialect.js';
import type { Sql } from './sql.js';

/** One statement a program asks for: all rows, the first row, or a write's count of changed rows. */
export interface Step {
  readonly kind: 'all' | 'get' | 'run';
  readonly statement: Sql;
}

/** Statements written once, run by a session; returns `T`. */
export type Program<T> = Generator<Step, T, unknown>;

/** The rows `statement` selects (or returns). */
export function* all<Row>(statement: Sql): Program<Row[]> {
  return (yield { kind: 'all', statement }) as Row[];
}

/** The first row `statement` selects (or returns), if any. */
export function* get<Row>(statement: Sql): Program<Row | undefined> {
  return (yield { kind: 'get', statement }) as Row | undefined;
}

/** Runs a write; returns how many rows it changed. */
export function* run(statement: Sql): Program<number> {
  return (yield { kind: 'run', statement }) as number;
}

/** Whether a session answers at once (`sync`) or with promises (`async`). */
export type SessionMode = 'sync' | 'async';

/** `T` as a session of `Mode` answers it: as it is, or as a promise. */
export type Answer<Mode extends SessionMode, T> = Mode extends 'sync' ? T : Promise<T>;

/** Runs statements and programs on one connection (or one transaction's client). */
export interface Session<Mode extends SessionMode> {
  readonly mode: Mode;
  readonly dialect: Dialect;
  /** Runs `program` to its end: synchronously on a sync session. */
  exec<T>(program: Program<T>): Answer<Mode, T>;
}

/** What a driver does with one rendered statement, synchronously. */
export type SyncStep = (kind: Step['kind'], statement: Rendered) => unknown;

/** What a driver does with one rendered statement, asynchronously. */
export type AsyncStep = (kind: Step['kind'], statement: Rendered) => Promise<unknown>;

/** A session over a synchronous driver: every program runs to its end before `exec` returns. */
export class SyncSession implements Session<'sync'> {
  readonly mode = 'sync';

  constructor(
    readonly dialect: Dialect,
    private readonly step: SyncStep,
  ) {}

  exec<T>(program: Program<T>): T {
    let next = program.next();
    while (!next.done) {
      let answer: unknown;
      try {
        answer = this.step(next.value.kind, render(this.dialect, next.value.statement));
      } catch (error) {
        next = program.throw(error);
        continue;
      }
      next = program.next(answer);
    }
    return next.value;
  }
}

/** A session over an asynchronous driver: each step is awaited. */
export class AsyncSession implements Session<'async'> {
  readonly mode = 'async';

  constructor(
    readonly dialect: Dialect,
    private readonly step: AsyncStep,
  ) {}

  async exec<T>(program: Program<T>): Promise<T> {
    let next = program.next();
    while (!next.done) {
      let answer: unknown;
      try {
        answer = await this.step(next.value.kind, render(this.dialect, next.value.statement));
      } catch (error) {
        next = program.throw(error);
        continue;
      }
      next = program.next(answer);
    }
    return next.value;
  }
}
