/**
 * The PostgreSQL connection pool of a store: opened from a `postgres://` URL (TLS through the
 * URL's `sslmode`, the pool size through `max` in options), 64-bit integers read as numbers
 * (Engram's are counts and epoch milliseconds, far below 2^53), and the driver's failures turned
 * into one-line errors that say what to check.
 */
import pg from 'pg';

import { redactUrl } from '../../config/redact-url.js';
import { EngramError } from '../../errors.js';

/** What a query runs on: the pool, or one client inside a transaction. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>;
}

/** `pool` with every failure to reach the database reported as a one-line error (see `connectionError`). */
export function reportingFailures(pool: Queryable, url: string): Queryable {
  return {
    query: (text, values) =>
      pool.query(text, values).catch((error: unknown) => {
        throw connectionError(error, url);
      }),
  };
}

/** Options of a PostgreSQL store's pool. */
export interface PoolOptions {
  /** Connections held at most. @default 10 */
  max?: number;
}

const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Whether `url` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** A pool for `url`; nothing connects until the first query. */
export function createPool(url: string, { max = 10 }: PoolOptions = {}): pg.Pool {
  if (!isPostgresUrl(url)) {
    throw new EngramError(
      'invalid_input',
      `${redactUrl(url)} is not a PostgreSQL URL: write postgres://user:password@host:5432/database`,
    );
  }
  try {
    new URL(url);
  } catch {
    throw new EngramError(
      'invalid_input',
      `${redactUrl(url)} is not a valid PostgreSQL URL: write postgres://user:password@host:5432/database`,
    );
  }
  const pool = new pg.Pool({ connectionString: url, max, types, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Checks out a pooled client for `use` (one or more transactions). While it is checked out the
 * pool listens for none of its errors, so a server that drops the connection would crash the
 * process: a listener here keeps it alive (the failing query reports it). A client that failed
 * is destroyed, never returned to the pool.
 */
export async function withClient<T>(pool: pg.Pool, url: string, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw connectionError(error, url);
  }
  let failure: Error | undefined;
  const onError = (error: Error): void => {
    failure ??= error;
  };
  client.on('error', onError);
  try {
    return await use(client);
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.off('error', onError);
    client.release(failure);
  }
}

/** SQLSTATE codes of failures the user can fix, with what to do. */
const KNOWN: Record<string, string> = {
  '28P01': 'the password was refused: check the user and password in the URL',
  '28000': 'the server refused this user: check the user in the URL and the server’s pg_hba.conf',
  '3D000': 'the database does not exist: create it (createdb) or fix the name in the URL',
  '42501': 'the user may not do this: grant it the rights to create tables in the database',
  '57P01': 'the server ended the connection (an administrator or a shutdown): try again in a moment',
  '57P02': 'the server ended the connection (a crash shutdown): try again in a moment',
  '57P03': 'the server is starting up or shutting down: try again in a moment',
  '57014': 'the statement was cancelled (statement_timeout or a cancel request): raise the timeout or try again',
  '53300': 'the server has no free connections: lower the pool size or raise max_connections',
};

/** Node's network errors, with what to check. */
const NETWORK: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there: is the server running, and are the host and port right?',
  ENOTFOUND: 'the host name does not resolve: check the host in the URL',
  EAI_AGAIN: 'the host name does not resolve: check the host in the URL',
  ETIMEDOUT: 'the connection timed out: check the host, the port and any firewall',
  EHOSTUNREACH: 'the host is unreachable: check the host in the URL',
  ECONNRESET: 'the server closed the connection: check sslmode in the URL and the server’s log',
};

/**
 * A connection or permission failure as an EngramError naming the database and what to check;
 * any other error is returned as it is (a query's own failure belongs to its caller).
 */
export function connectionError(error: unknown, url: string): unknown {
  if (error instanceof EngramError) return error;
  const code = (error as { code?: unknown }).code;
  const where = `PostgreSQL at ${redactUrl(url)}`;
  if (typeof code === 'string' && KNOWN[code] !== undefined) {
    return new EngramError('database_unavailable', `${where}: ${KNOWN[code]}`, { cause: error });
  }
  if (typeof code === 'string' && code.startsWith('08')) {
    return new EngramError('database_unavailable', `${where}: the connection failed (${code}): check the server and try again`, {
      cause: error,
    });
  }
  if (typeof code === 'string' && NETWORK[code] !== undefined) {
    return new EngramError('database_unavailable', `${where}: ${NETWORK[code]}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/Connection terminated unexpectedly/i.test(message)) {
    return new EngramError('database_unavailable', `${where}: the server closed the connection: try again in a moment`, {
      cause: error,
    });
  }
  if (/Cannot use a pool after calling end on the pool/i.test(message)) {
    return new EngramError('database_unavailable', `${where}: the store's connections are closed: open the store again`, {
      cause: error,
    });
  }
  if (/timeout|SSL|certificate|self[- ]signed|password/i.test(message) && !(typeof code === 'string' && code.length === 5)) {
    return new EngramError('database_unavailable', `${where}: ${message.split('\n')[0]}`, { cause: error });
  }
  return error;
}
