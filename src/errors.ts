/**
 * Every error Engram raises on purpose is an EngramError with a stable string `code`, so
 * surfaces can print one clear line (and map codes to exit codes or HTTP statuses) instead of
 * a stack trace. Expected outcomes such as "nothing found" are values, not errors.
 */

/** Stable error codes; callers branch on these, so extend the list rather than rename. */
export type EngramErrorCode =
  | 'invalid_input'
  | 'invalid_config'
  | 'not_found'
  | 'database_missing'
  | 'database_invalid'
  | 'database_locked'
  | 'database_unavailable'
  | 'database_read_only'
  | 'disk_full'
  | 'schema_too_new'
  | 'embedder_mismatch'
  | 'embedder_failed'
  | 'import_failed'
  | 'closed';

/**
 * Marks every EngramError. `Symbol.for` returns the same symbol in every realm and every copy
 * of this module (two installed versions, a worker, a VM context), where `instanceof` fails.
 */
const ENGRAM_ERROR = Symbol.for('engram.error');

/** The base of every deliberate Engram error. */
export class EngramError extends Error {
  readonly code: EngramErrorCode;

  constructor(code: EngramErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngramError';
    this.code = code;
    Object.defineProperty(this, ENGRAM_ERROR, { value: true });
  }
}

/** Bad input from a caller: the message says what was wrong and what to do. */
export class InvalidInputError extends EngramError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_input', message, options);
    this.name = 'InvalidInputError';
  }
}

/** A configuration file or environment variable that does not fit the schema. */
export class ConfigError extends EngramError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_config', message, options);
    this.name = 'ConfigError';
  }
}

/** No memory with that id (in this tenant). */
export class NotFoundError extends EngramError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('not_found', message, options);
    this.name = 'NotFoundError';
  }
}

/** The database was indexed by another embedder; `engram reindex` resolves it. */
export class EmbedderMismatchError extends EngramError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('embedder_mismatch', message, options);
    this.name = 'EmbedderMismatchError';
  }
}

/** True when `error` is an EngramError, whatever realm or copy of the module made it. */
export function isEngramError(error: unknown): error is EngramError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[ENGRAM_ERROR] === true;
}
