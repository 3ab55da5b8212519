/**
 * The session's context for MCP clients: the `session_start` prompt (the handoff note the
 * last session left, then the working set — what to read before the first message) and the
 * same text, plus the full current context, as resources.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

import type { Session } from '../../index.js';

/** Resource addresses, stable for clients that pin them. */
export const SESSION_START_URI = 'engram://session/start';
export const SESSION_CONTEXT_URI = 'engram://session/context';

/** Said instead of an empty context, so a client never shows a blank message. */
const NOTHING_YET = 'Engram has no handoff note or working set for this session yet.';

export function registerSessionContext(server: McpServer, session: Session): void {
  server.registerPrompt(
    'session_start',
    {
      title: 'Engram: session start',
      description:
        'The session-start context from long-term memory: the handoff note the last session left, then the working set (goals, constraints, decisions). Put it at the start of the conversation.',
    },
    async () => {
      const start = await session.start();
      return {
        description: `Session ${session.id}${start.resumed ? ' (resumed)' : ''}`,
        messages: [{ role: 'user', content: { type: 'text', text: start.text || NOTHING_YET } }],
      };
    },
  );
  server.registerResource(
    'session-start',
    SESSION_START_URI,
    {
      title: 'Session-start context',
      description: 'The handoff note the last session left, then the working set.',
      mimeType: 'text/plain',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: (await session.start()).text || NOTHING_YET }] }),
  );
  server.registerResource(
    'session-context',
    SESSION_CONTEXT_URI,
    {
      title: 'Session context',
      description:
        'Everything the model should see now: handoff, working set, this turn’s recall, scratchpad, this session’s thoughts.',
      mimeType: 'text/plain',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: (await session.context()).text || NOTHING_YET }],
    }),
  );
}
