/**
 * `/v1/sessions/{id}/…`: the turn loop over HTTP. A session is resumable by id from any
 * client; the scope is not stored with the id on this side, so send the same `scope` (and
 * `scopes`) on every call of one session.
 */
import { type Engram, InvalidInputError, type Session } from '../../../index.js';
import { defineRoute } from '../api-route.js';
import { AfterStepBody, BeforeTurnBody, SessionBody, SessionQuery } from '../request-schemas.js';
import {
  AfterStepResponse,
  BeforeTurnResponse,
  SessionContextResponse,
  SessionEndResponse,
  SessionStartResponse,
} from '../response-schemas.js';

/** Longest session id accepted in a path. */
const MAX_SESSION_ID_CHARS = 256;

function sessionFor(
  engram: Engram,
  id: string | undefined,
  where: { scope?: string | undefined; scopes?: readonly string[] | undefined },
): Session {
  if (!id || id.length > MAX_SESSION_ID_CHARS) {
    throw new InvalidInputError(`a session id must be 1 to ${MAX_SESSION_ID_CHARS} characters`);
  }
  return engram.session({ id, scope: where.scope, scopes: where.scopes });
}

export const SESSION_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/sessions/:id/start',
    tag: 'sessions',
    summary: 'Start or resume a session: the session-start context (handoff, then working set)',
    body: SessionBody,
    bodyOptional: true,
    response: SessionStartResponse,
    handle: ({ engram, params, body }) => sessionFor(engram, params.id, body).start(),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/:id/before-turn',
    tag: 'sessions',
    summary: 'Active recall for one user message (seed 000), before the first model call',
    description:
      'Returns the system message to insert at position 1 (or null), the memories in it, and the receipt that says why. Call it once per user message.',
    body: BeforeTurnBody,
    response: BeforeTurnResponse,
    handle: ({ engram, params, body }) => sessionFor(engram, params.id, body).beforeTurn(body.message),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/:id/after-step',
    tag: 'sessions',
    summary: 'After each model step: counts tool-only steps; the reflection nudge with intrusive recall when due (seed 001)',
    body: AfterStepBody,
    response: AfterStepResponse,
    handle: ({ engram, params, body }) =>
      sessionFor(engram, params.id, body).afterStep({ assistantText: body.assistantText, toolCalls: body.toolCalls }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/sessions/:id/context',
    tag: 'sessions',
    summary: 'The ordered sections the model should see: handoff, working set, this turn’s recall, scratchpad, thoughts',
    query: SessionQuery,
    response: SessionContextResponse,
    handle: ({ engram, params, query }) => sessionFor(engram, params.id, query).context(),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/:id/end',
    tag: 'sessions',
    summary: 'Mark a session ended (it can still be resumed)',
    body: SessionBody,
    bodyOptional: true,
    response: SessionEndResponse,
    handle: async ({ engram, params, body }) => {
      const session = sessionFor(engram, params.id, body);
      await session.end();
      return { sessionId: session.id, ended: true };
    },
  }),
];
