/**
 * An MCP server for one client connection: one Engram session, its memory tools, the
 * knowledge-graph tools (the MCP reference memory server's nine, same names and arguments),
 * the session-start prompt and context resources, and the recall receipts. Build one per
 * connection; the transport (stdio, streamable HTTP) is the caller's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

import { createGraphTools } from '../../entries/tools.js';
import type { Engram, Session } from '../../index.js';
import { ENGRAM_VERSION } from '../version.js';
import { answerBadParamsAsInvalidParams } from './invalid-params.js';
import { PendingCalls, registerMemoryTools } from './memory-tools.js';
import { registerReceipts } from './receipts.js';
import { registerSessionContext } from './session-context.js';

/** What the server is bound to. */
export interface EngramMcpServerOptions {
  engram: Engram;
  /** Resume the session with this id; a new id when omitted. */
  sessionId?: string | undefined;
  /** The scope the session writes to and reads first. @default "global" */
  scope?: string | undefined;
  /** Scopes recall and search may see, most specific first. @default [scope, "global"] */
  scopes?: readonly string[] | undefined;
}

/** A server and the session behind it. */
export interface EngramMcpServer {
  server: McpServer;
  session: Session;
  /** Resolves once every tool call started so far has finished (its writes included). */
  settled(): Promise<void>;
}

/** Told to the client at initialization; clients pass it to the model. */
const INSTRUCTIONS = [
  'Engram is your long-term memory across conversations.',
  'Read the session_start prompt (or the engram://session/start resource) first: it holds the handoff note of the last session and the working set.',
  'Search with search_memory before answering from assumptions; store durable facts, preferences and decisions with write_memory;',
  'keep working notes with scratch_note, private reasoning with think, and before ending leave a write_session_handoff for the next session.',
  'Before a task, recall_solution finds similar tasks solved before; after one, store_solution records it.',
  'The knowledge graph holds named entities, their facts (observations) and the relations between them: look them up with search_nodes or open_nodes,',
  'add to it with create_entities, create_relations and add_observations; read_graph reads it page by page.',
].join(' ');

export function createEngramMcpServer(options: EngramMcpServerOptions): EngramMcpServer {
  const session = options.engram.session({ id: options.sessionId, scope: options.scope, scopes: options.scopes });
  const server = new McpServer({ name: 'engram', version: ENGRAM_VERSION }, { instructions: INSTRUCTIONS });
  const pending = new PendingCalls();
  // The graph belongs to the tenant, not the session: every connection of the tenant sees the same one.
  registerMemoryTools(server, [...session.tools(), ...createGraphTools({ engram: options.engram })], pending);
  registerSessionContext(server, session);
  registerReceipts(server, options.engram, session);
  answerBadParamsAsInvalidParams(server.server);
  return { server, session, settled: () => pending.settled() };
}
