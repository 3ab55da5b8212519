/**
 * `engram/ai-sdk`: Engram's recall for Vercel AI SDK models. Needs the `ai` package (an optional
 * peer dependency of Engram), version 6 or later.
 */
export type { EngramMiddlewareOptions } from './engram-middleware.js';
export { engramMiddleware } from './engram-middleware.js';
