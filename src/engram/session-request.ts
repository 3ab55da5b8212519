/**
 * Reading what `session()`, `receipts()`, `sessions()`, `injections()` and `activity()` are
 * given: the shared schemas check them (`model/session-request.ts`, `model/page-request.ts`), and
 * the defaults are filled in here (a new id; the session's scope, then the default scope; 20
 * receipts, 50 sessions or injections, 1,000 activity lines).
 */
import { InvalidInputError } from '../errors.js';
import { DEFAULT_SCOPE } from '../model/memory.js';
import {
  type InjectionListOptions,
  InjectionListRequestSchema,
  type SessionListOptions,
  SessionListRequestSchema,
} from '../model/page-request.js';
import {
  type ReceiptQueryOptions,
  ReceiptQuerySchema,
  type SessionOptions,
  SessionOptionsSchema,
} from '../model/session-request.js';
import type { ActivityQuery, ReceiptQuery, SessionListQuery } from '../store/store.js';
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

/** A page of the session list: 50 sessions unless `limit` says otherwise. */
export function parseSessionList(options: SessionListOptions): SessionListQuery {
  const result = SessionListRequestSchema.safeParse(options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  return { limit: result.data.limit ?? 50, after: result.data.after };
}

/** A page of a memory's injections: 50 from the latest unless `limit` and `offset` say otherwise. */
export function parseInjectionList(options: InjectionListOptions): { limit: number; offset: number } {
  const result = InjectionListRequestSchema.safeParse(options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  return { limit: result.data.limit ?? 50, offset: result.data.offset ?? 0 };
}

/** Which activity lines: one UTC day (`YYYY-MM-DD`) or every day, the latest 1,000 unless `limit` says otherwise. */
export function parseActivityQuery(options: { day?: string; limit?: number }): ActivityQuery {
  if (options.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.day)) {
    throw new InvalidInputError(`day must be a date like 2026-01-31 (got ${options.day})`);
  }
  return { day: options.day, limit: options.limit ?? 1000 };
}
