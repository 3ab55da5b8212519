/**
 * `engram`: what an application needs — open an engine, remember, search, run a session's turns,
 * read receipts, handle errors, bring an embedder. Every export here is a promise to users: add
 * deliberately, never rename (api/engram-api.md records the surface; test/api-report.test.ts fails
 * when it changes unannounced). Everything else lives behind a named subpath, chosen in
 * docs/decisions/public-api.md: `engram/tools`, `engram/model`, `engram/maintenance`,
 * `engram/store` (experimental), `engram/sqlite`, `engram/postgres`, `engram/mcp`, `engram/http`,
 * `engram/ai-sdk`. Importing this entry loads no database driver: `openEngram` loads the one its
 * configuration chooses.
 */
export { loadConfig } from './config/load.js';
export type { ConfigInput, EngramConfig } from './config/schema.js';
export type { Embedder } from './embedding/embedder.js';
export { createLocalEmbedder } from './embedding/local-use-embedder.js';
export { createOpenAiEmbedder } from './embedding/openai-embedder.js';
export type { OpenEngramOptions } from './engram/engram.js';
export { Engram, openEngram } from './engram/engram.js';
export type { EngramErrorCode } from './errors.js';
export { ConfigError, EmbedderMismatchError, EngramError, InvalidInputError, isEngramError, NotFoundError } from './errors.js';
export type { Clock } from './model/clock.js';
export { manualClock } from './model/clock.js';
export type { Kind, Memory, Source, Tier } from './model/memory.js';
export type { MemoryInput, MemoryPatch } from './model/memory-input.js';
export type { Receipt } from './model/receipt.js';
export type { SearchOptions } from './model/search-request.js';
export type { SessionOptions } from './model/session-request.js';
export type { SearchHit } from './retrieval/hybrid-search.js';
export type { AfterStep, AgentStep, BeforeTurn, Session, SessionContext } from './session/session.js';
