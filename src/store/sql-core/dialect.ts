/**
 * The two SQL dialects Engram speaks: how each renders a statement of sql.ts. The differences
 * are few and all here — placeholders (`?` or `$n`), lists of values (a JSON array read by
 * `json_each`, or a typed array read by `unnest` and `= ANY`), a join kept in the written order,
 * byte-order text comparison, `instr` or `strpos`, how "no limit" is said, and an index a read
 * is told to use (SQLite's `INDEXED BY`; PostgreSQL's planner is not told). Everything else
 * (booleans as 0/1, times as epoch milliseconds, JSON bodies as text) is stored alike.
 */
import type { Chunk, ListType, Piece, Sql } from './sql.js';

/** A statement rendered for one database: its text and its parameters in order. */
export interface Rendered {
  readonly text: string;
  readonly params: unknown[];
}

/** How one database spells a statement. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** The placeholder of the parameter just added as `params[n - 1]`. */
  placeholder(n: number): string;
  /** The text of `piece`, adding its parameters to `params`. */
  piece(piece: Piece, params: unknown[]): string;
}

/** Renders `statement` for `dialect`; the parameters follow any already in `params`. */
export function render(dialect: Dialect, statement: Sql, params: unknown[] = []): Rendered {
  return { text: renderInto(dialect, statement, params), params };
}

/** The text of `fragment` for `dialect`; its parameters are appended to `params`. */
export function renderInto(dialect: Dialect, fragment: Sql, params: unknown[]): string {
  let text = '';
  for (const chunk of fragment.chunks) text += renderChunk(dialect, chunk, params);
  return text;
}

function renderChunk(dialect: Dialect, chunk: Chunk, params: unknown[]): string {
  if ('text' in chunk) return chunk.text;
  if ('value' in chunk) return bind(dialect, params, chunk.value);
  if ('fragment' in chunk) return renderInto(dialect, chunk.fragment, params);
  return dialect.piece(chunk.piece, params);
}

function bind(dialect: Dialect, params: unknown[], value: unknown): string {
  params.push(value);
  return dialect.placeholder(params.length);
}

/** SQLite (better-sqlite3): `?` placeholders, lists as JSON arrays read by `json_each`. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  placeholder: () => '?',
  piece(piece, params) {
    const inner = (fragment: Sql) => renderInto(sqliteDialect, fragment, params);
    switch (piece.kind) {
      case 'in':
        return `${inner(piece.column)} ${piece.not ? 'NOT IN' : 'IN'} (${piece.values.map((v) => bind(this, params, v)).join(', ')})`;
      case 'one-of':
        return `${inner(piece.column)} IN (SELECT value FROM json_each(${bind(this, params, JSON.stringify(piece.values))}))`;
      case 'table':
        return `json_each(${bind(this, params, JSON.stringify(piece.values))}) AS ${piece.alias}`;
      case 'rows': {
        const columns = piece.columns.map((column, i) => `, value ->> ${i} AS ${column.name}`).join('');
        return `(SELECT key AS n${columns} FROM json_each(${bind(this, params, JSON.stringify(piece.rows))})) AS ${piece.alias}`;
      }
      case 'join':
        // The planner keeps a CROSS JOIN's tables in the written order: the list drives the lookups.
        return 'CROSS JOIN';
      case 'bytewise':
        return inner(piece.expression); // SQLite compares text byte by byte (BINARY) already
      case 'position':
        return `instr(${inner(piece.text)}, ${inner(piece.part)})`;
      case 'limit':
        return `LIMIT ${bind(this, params, piece.value === undefined || piece.value < 0 ? -1 : piece.value)}`;
      case 'indexed-by':
        return `INDEXED BY ${piece.index}`;
      case 'table-exists':
        return `EXISTS (SELECT 1 FROM sqlite_master WHERE name = ${bind(this, params, piece.name)} AND type = 'table')`;
    }
  },
};

/** PostgreSQL (pg): `$n` placeholders, lists as typed arrays read by `unnest` and `= ANY`. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  placeholder: (n) => `$${n}`,
  piece(piece, params) {
    const inner = (fragment: Sql) => renderInto(postgresDialect, fragment, params);
    switch (piece.kind) {
      case 'in': {
        const test = `${inner(piece.column)} = ANY(${bind(this, params, [...piece.values])}::text[])`;
        return piece.not ? `NOT (${test})` : test;
      }
      case 'one-of':
        return `${inner(piece.column)} = ANY(${array(this, params, piece.values, piece.type)})`;
      case 'table':
        return `unnest(${array(this, params, piece.values, piece.type)}) WITH ORDINALITY AS ${piece.alias}(value, key)`;
      case 'rows': {
        const arrays = piece.columns.map((column, i) =>
          array(
            this,
            params,
            piece.rows.map((row) => row[i]),
            column.type,
          ),
        );
        return `unnest(${arrays.join(', ')}) WITH ORDINALITY AS ${piece.alias}(${piece.columns.map((column) => `${column.name}, `).join('')}n)`;
      }
      case 'join':
        return 'JOIN';
      case 'bytewise':
        return `${inner(piece.expression)} COLLATE "C"`;
      case 'position':
        return `strpos(${inner(piece.text)}, ${inner(piece.part)})`;
      case 'limit':
        // LIMIT NULL is no limit, in the same statement text as a number.
        return `LIMIT ${bind(this, params, piece.value === undefined || piece.value < 0 ? null : piece.value)}`;
      case 'indexed-by':
        return ''; // PostgreSQL cannot be told: its planner picks the index from the statistics
      case 'table-exists':
        // On the search path, as the tables the store writes.
        return `(to_regclass(${bind(this, params, piece.name)}) IS NOT NULL)`;
    }
  },
};

function array(dialect: Dialect, params: unknown[], values: readonly unknown[], type: ListType): string {
  return `${bind(dialect, params, [...values])}::${type}[]`;
}
