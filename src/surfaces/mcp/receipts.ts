/**
 * Recall receipts as MCP resources: why recall chose what it chose, for this connection's
 * session and, by id, for any session of the same tenant (a hook's, an HTTP client's).
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';

import type { Engram, Session } from '../../index.js';

export const SESSION_RECEIPTS_URI = 'engram://session/receipts';
export const RECEIPTS_TEMPLATE = 'engram://receipts/{sessionId}';

/** Receipts per read, newest first. */
const RECEIPTS_PER_READ = 20;

export function registerReceipts(server: McpServer, engram: Engram, session: Session): void {
  const read = async (uri: URL, sessionId: string) => ({
    contents: [
      {
        uri: uri.href,
        mimeType: 'application/json',
        text: JSON.stringify(await engram.receipts({ sessionId, limit: RECEIPTS_PER_READ }), null, 2),
      },
    ],
  });
  server.registerResource(
    'session-receipts',
    SESSION_RECEIPTS_URI,
    {
      title: 'Recall receipts of this session',
      description: `The latest ${RECEIPTS_PER_READ} recall decisions of this session, newest first: chosen, left out, and why.`,
      mimeType: 'application/json',
    },
    (uri) => read(uri, session.id),
  );
  server.registerResource(
    'receipts',
    new ResourceTemplate(RECEIPTS_TEMPLATE, { list: undefined }),
    {
      title: 'Recall receipts of a session',
      description: `The latest ${RECEIPTS_PER_READ} recall decisions of the session with this id, newest first.`,
      mimeType: 'application/json',
    },
    (uri, variables) => read(uri, String(variables.sessionId)),
  );
}
