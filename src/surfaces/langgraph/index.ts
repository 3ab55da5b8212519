/**
 * `engram/langgraph`: Engram as LangGraph.js's long-term memory store. Needs
 * `@langchain/langgraph-checkpoint` 1.x (an optional peer dependency of Engram, installed with
 * `@langchain/langgraph` 1.x); nothing of it loads unless this entry is imported.
 */
export type { EngramStoreOptions } from './engram-store.js';
export { EngramStore } from './engram-store.js';
export { scopeOfNamespace } from './namespace-scope.js';
