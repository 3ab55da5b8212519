/**
 * SQL written once for both databases: the `sql` template keeps the text and the values apart
 * (every interpolated value becomes a bound parameter, never text), and a few named pieces
 * stand where SQLite and PostgreSQL spell the same thing differently (a list of values, a join
 * kept in the written order, a byte-order comparison, an index named for a read). A dialect
 * (dialect.ts) renders a statement for its database: `?` or `$n` placeholders and each piece in
 * its own spelling.
 */

/** What a dialect spells its own way; see `Dialect` in dialect.ts for each spelling. */
export type Piece =
  | { readonly kind: 'in'; readonly column: Sql; readonly values: readonly unknown[]; readonly not: boolean }
  | { readonly kind: 'one-of'; readonly column: Sql; readonly values: readonly unknown[]; readonly type: ListType }
  | { readonly kind: 'table'; readonly alias: string; readonly values: readonly unknown[]; readonly type: ListType }
  | { readonly kind: 'rows'; readonly alias: string; readonly columns: readonly Column[]; readonly rows: readonly unknown[][] }
  | { readonly kind: 'join' }
  | { readonly kind: 'bytewise'; readonly expression: Sql }
  | { readonly kind: 'position'; readonly text: Sql; readonly part: Sql }
  | { readonly kind: 'limit'; readonly value: number | undefined }
  | { readonly kind: 'indexed-by'; readonly index: string }
  | { readonly kind: 'table-exists'; readonly name: string };

/** The type of a list's values, for databases that bind arrays by type. */
export type ListType = 'text' | 'integer';

/** A column of a `rows` table: its name and its values' type. */
export interface Column {
  readonly name: string;
  readonly type: ListType;
}

/** One part of a statement: literal text, a bound value, a nested fragment or a dialect piece. */
export type Chunk =
  { readonly text: string } | { readonly value: unknown } | { readonly fragment: Sql } | { readonly piece: Piece };

/** A statement or a fragment of one, not yet rendered for a database. */
export class Sql {
  constructor(readonly chunks: readonly Chunk[]) {}
}

/** A statement: literal text, with every `${value}` bound as a parameter and every `${fragment}` spliced in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const chunks: Chunk[] = [];
  strings.forEach((text, i) => {
    if (text !== '') chunks.push({ text });
    if (i < values.length) chunks.push(chunkOf(values[i]));
  });
  return new Sql(chunks);
}

/** Text spliced in as it is: only for names and keywords written in the code, never for a value. */
export function raw(text: string): Sql {
  return new Sql([{ text }]);
}

/** The fragments joined by `separator` (`, ` unless told). */
export function join(fragments: readonly Sql[], separator = ', '): Sql {
  const chunks: Chunk[] = [];
  fragments.forEach((fragment, i) => {
    if (i > 0) chunks.push({ text: separator });
    chunks.push({ fragment });
  });
  return new Sql(chunks);
}

/**
 * `column IN (values)` (or NOT IN) with each value bound on its own in SQLite (the planner
 * weighs them against its statistics; one statement text per list length) and as one text
 * array in PostgreSQL. For the filter clause's short lists of scopes and kinds.
 */
export function isIn(column: Sql, values: readonly string[], not = false): Sql {
  return piece({ kind: 'in', column, values, not });
}

/** `column IN (values)` with the values bound as one parameter (a JSON array, or an array), any length. */
export function oneOf(column: Sql, values: readonly unknown[], type: ListType = 'text'): Sql {
  return piece({ kind: 'one-of', column, values, type });
}

/** The values as a table `alias(value, key)`, `key` counting up in the values' order. */
export function table(alias: string, values: readonly unknown[], type: ListType = 'text'): Sql {
  return piece({ kind: 'table', alias, values, type });
}

/** Rows of several columns as a table `alias(columns…, n)`, `n` counting up in the rows' order. */
export function rows(alias: string, columns: readonly Column[], values: readonly unknown[][]): Sql {
  return piece({ kind: 'rows', alias, columns, rows: values });
}

/** A join the planner keeps in the written order where it can be told to (SQLite's CROSS JOIN). */
export const JOIN_IN_ORDER: Sql = piece({ kind: 'join' });

/** `expression` compared and ordered byte by byte, as SQLite compares text, whatever the collation. */
export function bytewise(expression: Sql): Sql {
  return piece({ kind: 'bytewise', expression });
}

/** Where `part` starts in `text`, from 1; 0 when it is not in it. */
export function position(text: Sql, part: Sql): Sql {
  return piece({ kind: 'position', text, part });
}

/** `LIMIT n`; no limit for undefined or a negative `n`. */
export function limit(value: number | undefined): Sql {
  return piece({ kind: 'limit', value });
}

/**
 * After a table and its alias: read it through the index `name` where the database can be told
 * to (SQLite's `INDEXED BY`, which fails the statement rather than read otherwise); nothing in
 * PostgreSQL, whose planner chooses. Only for an index every schema of the database has.
 */
export function indexedBy(name: string): Sql {
  return piece({ kind: 'indexed-by', index: name });
}

/** Whether the database has the table `name` (a boolean, or 0/1 in SQLite). */
export function tableExists(name: string): Sql {
  return piece({ kind: 'table-exists', name });
}

function piece(value: Piece): Sql {
  return new Sql([{ piece: value }]);
}

function chunkOf(value: unknown): Chunk {
  return value instanceof Sql ? { fragment: value } : { value };
}
