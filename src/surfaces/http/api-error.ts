/**
 * Errors as the HTTP API answers them: every failure is `{ error: { code, message } }` with a
 * 4xx status for a caller's mistake and 5xx only for the server's own trouble. Engram's error
 * codes pass through; the API adds the codes of HTTP itself (bad JSON, too large, no token).
 */
import { type EngramErrorCode, isEngramError } from '../../index.js';

/** Every `error.code` the API can answer with. */
export type ApiErrorCode =
  | EngramErrorCode
  | 'invalid_json'
  | 'payload_too_large'
  | 'unauthorized'
  | 'forbidden'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'session_not_found'
  | 'shutting_down'
  | 'internal';

/** The body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}

/** A failure the API reports with this status and code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;

  constructor(status: number, code: ApiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * The HTTP status of each Engram error code: the caller's mistakes are 4xx. A database another
 * process holds locked, or one the server cannot write, is 503 (the request may succeed once that
 * is resolved); a full disk is 507 Insufficient Storage.
 */
const ENGRAM_STATUS: Record<EngramErrorCode, number> = {
  invalid_input: 400,
  import_failed: 400,
  not_found: 404,
  embedder_mismatch: 409,
  embedder_failed: 502,
  closed: 503,
  invalid_config: 500,
  database_missing: 500,
  database_invalid: 500,
  database_locked: 503,
  database_unavailable: 503,
  database_read_only: 503,
  disk_full: 507,
  schema_too_new: 500,
};

/**
 * The status and body for `error`. Anything that is not a deliberate error is a bug or a
 * failing disk: the caller gets a generic 500 without details, and `report` gets the error.
 */
export function errorResponse(error: unknown, report: (error: unknown) => void): { status: number; body: ApiErrorBody } {
  if (error instanceof ApiError) return { status: error.status, body: { error: { code: error.code, message: error.message } } };
  if (isEngramError(error)) {
    const status = ENGRAM_STATUS[error.code] ?? 500;
    if (status >= 500) report(error);
    return { status, body: { error: { code: error.code, message: error.message } } };
  }
  report(error);
  return {
    status: 500,
    body: { error: { code: 'internal', message: 'unexpected server error: the server log has the details' } },
  };
}
