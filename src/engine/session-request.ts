/**
 * Reading what `session()` and `receipts()` are given: checks with messages a caller can act
 * on, and the defaults (a new id; the session's scope, then the default scope).
 */
import { InvalidInputError } from '../errors.js';
import type { ReceiptQuery } from '../store/store.js';
import { DEFAULT_SCOPE } from './new-memory.js';

/** What `session` takes. */
export interface SessionOptions {
  /** Resume a session by id; a new id when omitted. */
  id?: string;
  /** The scope the session belongs to. @default "global" */
  scope?: string;
  /** Scopes recall may see, most specific first. @default [scope, "global"] */
  scopes?: readonly string[];
}

/** A session's identity from `options`, with a new id from `newId` when none is given. */
export function parseSessionOptions(
  options: SessionOptions,
  newId: () => string,
): { id: string; scope: string; scopes: readonly string[]; scopeGiven: boolean } {
  const named = (name: string, value: unknown) => {
    if (value !== undefined && (typeof value !== 'string' || value.trim().length === 0)) {
      throw new InvalidInputError(`session ${name} must be a non-empty string`);
    }
  };
  named('id', options.id);
  named('scope', options.scope);
  if (options.scopes !== undefined) {
    if (!Array.isArray(options.scopes) || options.scopes.length === 0) {
      throw new InvalidInputError('session scopes must be a non-empty list, most specific first');
    }
    for (const scope of options.scopes) named('scopes entry', scope);
  }
  const scope = options.scope ?? DEFAULT_SCOPE;
  return {
    id: options.id ?? newId(),
    scope,
    scopes: options.scopes ?? [...new Set([scope, DEFAULT_SCOPE])],
    scopeGiven: options.scope !== undefined || options.scopes !== undefined,
  };
}

/** Which receipts to read: `limit` defaults to 20; `turn` counts from 1. */
export function parseReceiptQuery(query: { sessionId?: string; turn?: number; limit?: number }): ReceiptQuery {
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1)
    throw new InvalidInputError(`limit must be a whole number of at least 1 (got ${limit})`);
  if (query.turn !== undefined && (!Number.isInteger(query.turn) || query.turn < 1)) {
    throw new InvalidInputError(`turn must be a whole number of at least 1 (got ${query.turn})`);
  }
  return { sessionId: query.sessionId, turn: query.turn, limit };
}
