/** The OpenAI-compatible recall proxy (`engram proxy`). */
export { RECALL_HEADER, SCOPE_HEADER, SESSION_HEADER } from './chat-completions.js';
export type { RecallProxyOptions, RunningRecallProxy } from './proxy-server.js';
export { DEFAULT_PROXY_PORT, parseUpstream, startRecallProxy } from './proxy-server.js';
