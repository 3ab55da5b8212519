/**
 * Reading what `session()` and `receipts()` are given: the shared schemas check them
 * (`model/session-request.ts`), and the defaults are filled in here (a new id; the session's
 * scope, then the default scope; 20 receipts).
 */
import { InvalidInputError } from '../errors.js';
import { DEFAULT_SCOPE } from '../model/memory.js';
import {
  type ReceiptQueryOptions,
  ReceiptQuerySchema,
  type SessionOptions,
  SessionOptionsSchema,
} from '../model/session-request.js';
import type { ReceiptQuery } from '../store/store.js';
import { describeMessages } from './describe-messages.js';

/** A session's identity from `options`, with a new id from `newId` when none is given. */
export function parseSessionOptions(
  options: SessionOptions,
  newId: () => string,
): { id: string; scope: string; scopes: readonly string[]; scopeGiven: boolean } {
  const result = SessionOptionsSchema.safeParse(options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  const scope = result.data.scope ?? DEFAULT_SCOPE;
  return {
    id: result.data.id ?? newId(),
    scope,
    scopes: result.data.scopes ?? [...new Set([scope, DEFAULT_SCOPE])],
    scopeGiven: result.data.scope !== undefined || result.data.scopes !== undefined,
  };
}

/** Which receipts to read: `limit` defaults to 20; `turn` counts from 1. */
export function parseReceiptQuery(query: ReceiptQueryOptions): ReceiptQuery {
  const result = ReceiptQuerySchema.safeParse(query);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  return { sessionId: result.data.sessionId, turn: result.data.turn, limit: result.data.limit ?? 20 };
}
