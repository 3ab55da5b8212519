/**
 * The web inspector: server-rendered pages of one tenant's memories, sessions, receipts, notes,
 * graph and statistics, over the same engine calls as the HTTP API. `engram serve` mounts it at
 * `/` (see docs/inspector.md).
 */
export type { InspectorOptions } from './inspector-app.js';
export { createInspectorApp, INSPECTOR_PATHS } from './inspector-app.js';
export { WebSessions } from './web-sessions.js';
