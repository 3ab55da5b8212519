/**
 * `engramMiddleware`: Engram's recall for any AI SDK model, by wrapping it —
 * `wrapLanguageModel({ model, middleware: engramMiddleware({ engram, sessionId }) })`.
 * Active recall once per new user message, the reflection nudge with intrusive recall on long
 * tool loops, and (if asked) the memory tools, all through the same Session as the library.
 */
import type { LanguageModelMiddleware } from 'ai';

import { generateWithMemory } from './generate.js';
import { createMiddlewareState, type EngramMiddlewareOptions } from './state.js';
import { streamWithMemory } from './stream.js';

export type { EngramMiddlewareOptions } from './state.js';

/**
 * A language-model middleware (AI SDK 6, specification v3) that gives the wrapped model Engram's
 * recall. One middleware is one conversation: create one per session.
 */
export function engramMiddleware(options: EngramMiddlewareOptions): LanguageModelMiddleware {
  const state = createMiddlewareState(options);
  return {
    specificationVersion: 'v3',
    wrapGenerate: ({ model, params }) => generateWithMemory(state, model, params),
    wrapStream: ({ model, params }) => streamWithMemory(state, model, params),
  };
}
