/**
 * What opening a session and reading receipts take, as zod schemas: the one place their fields
 * and error messages are written, shared by the library (`engram.session`, `engram.receipts`)
 * and the HTTP API's session routes.
 */
import { z } from 'zod';

const nonEmpty = (name: string) =>
  z
    .string({ error: `session ${name} must be a non-empty string` })
    .refine((value) => value.trim().length > 0, `session ${name} must be a non-empty string`);

/** Which session: `engram.session(...)` and every `/v1/sessions/{id}/…` route. */
export const SessionOptionsSchema = z.object({
  id: nonEmpty('id').optional().describe('Resume a session by id; a new id when omitted'),
  scope: nonEmpty('scope')
    .optional()
    .describe('The scope the session belongs to; send the same one on every call. @default "global"'),
  scopes: z
    .array(nonEmpty('scopes entry'), { error: 'session scopes must be a non-empty list, most specific first' })
    .min(1, 'session scopes must be a non-empty list, most specific first')
    .optional()
    .describe('Scopes recall may see, most specific first. @default [scope, "global"]'),
});

/** What `session` takes. */
export interface SessionOptions {
  /** Resume a session by id; a new id when omitted. */
  id?: string;
  /** The scope the session belongs to. @default "global" */
  scope?: string;
  /** Scopes recall may see, most specific first. @default [scope, "global"] */
  scopes?: readonly string[];
}

const atLeastOne = (name: string) =>
  z
    .number({ error: (issue) => `${name} must be a whole number of at least 1 (got ${String(issue.input)})` })
    .refine((value) => Number.isInteger(value) && value >= 1, {
      error: (issue) => `${name} must be a whole number of at least 1 (got ${String(issue.input)})`,
    });

/** Which receipts to read, newest first: `engram.receipts(...)` and `GET /v1/receipts`. */
export const ReceiptQuerySchema = z.object({
  sessionId: z.string().optional().describe('Only this session'),
  turn: atLeastOne('turn').optional().describe('Only this turn (counted from 1)'),
  limit: atLeastOne('limit').optional().describe('@default 20'),
});

/** What `receipts` takes. */
export type ReceiptQueryOptions = z.input<typeof ReceiptQuerySchema>;
