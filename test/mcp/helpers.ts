/**
 * Shared by the MCP tests: connect the SDK's client to `engram mcp` (a real child process) or
 * to `/mcp` of a running server, and exercise every memory tool the way a model would (the
 * graph tools' script is in `graph-script.ts`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';

import {
  createGraphTools,
  createMemoryTools,
  GRAPH_TOOL_NAMES,
  MEMORY_TOOL_NAMES,
  toMcpTools,
  type ToolEngine,
} from '../../src/entries/tools.js';
import { childEnv, CLI, LEXICAL } from '../cli/helpers.js';

/** A client connected to a child `engram mcp`, with what the child wrote to standard error. */

/** Bearer tokens of two tenants, for the tests that serve MCP over HTTP with tokens. */
export const ACME = 'acme-token-0123456789abcdef';
export const GLOBEX = 'globex-token-0123456789abcdef';
export interface StdioConnection {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Errors the client met reading the child's standard output (there must be none). */
  protocolErrors: Error[];
}

/** Spawns `engram mcp <args>` in `cwd` and connects the SDK's client to it. */
export async function connectStdio(
  cwd: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = LEXICAL,
): Promise<StdioConnection> {
  const variables = Object.fromEntries(
    Object.entries(childEnv(env)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    cwd,
    env: variables,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, protocolErrors };
}

/** Connects the SDK's client to a server's `/mcp` over streamable HTTP. */
export async function connectHttp(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { ...headers } } });
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** Calls a tool and returns its result, typed loosely for assertions. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The tool definitions the library generates: what `tools/list` must carry, byte for byte. */
export function expectedToolDefinitions() {
  const engram = {} as ToolEngine;
  return toMcpTools([...createMemoryTools({ engram }), ...createGraphTools({ engram })]);
}

/**
 * Lists the tools and calls each one as a model would: every tool works, the state it leaves
 * is visible to the next call, and bad arguments come back as a tool error, not a crash.
 */
export async function exerciseEveryTool(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES, ...GRAPH_TOOL_NAMES]);
  for (const expected of expectedToolDefinitions()) {
    const served = tools.find((tool) => tool.name === expected.name);
    expect(served?.description).toBe(expected.description);
    expect(served?.inputSchema).toEqual(expected.inputSchema);
  }

  const written = await callTool(client, 'write_memory', {
    key: 'deploy-steps',
    content: 'Deploy with make release, then tag the commit',
    tier: 'must',
  });
  expect(written.isError).toBeFalsy();
  expect(written.structuredContent?.id).toEqual(expect.any(String));

  const found = await callTool(client, 'search_memory', { query: 'how do we deploy a release' });
  expect(found.isError).toBeFalsy();
  expect(JSON.stringify(found.structuredContent)).toContain('make release');

  const handoff = await callTool(client, 'write_session_handoff', { content: 'Next: finish the invoice export' });
  expect(handoff.isError).toBeFalsy();

  expect(
    (await callTool(client, 'scratch_note', { mode: 'replace', content: 'todo: check the billing totals' })).isError,
  ).toBeFalsy();
  const scratch = await callTool(client, 'scratch_note', { mode: 'read' });
  expect(scratch.structuredContent?.text).toContain('check the billing totals');

  const thought = await callTool(client, 'think', { thought: 'The user wants short answers' });
  expect(thought.structuredContent?.message).toBe('Thought recorded.');

  const stored = await callTool(client, 'store_solution', {
    goal: 'Write a CSV parser',
    approach: 'Read the file, split by newlines, then by commas',
    outcome: 'Working script',
    confidence: 90,
  });
  expect(stored.isError).toBeFalsy();
  const recalled = await callTool(client, 'recall_solution', { goal: 'Write a CSV parser', similarity: 'keyword' });
  expect(recalled.structuredContent?.block).toContain('### RECALL');

  const bad = await callTool(client, 'search_memory', { limit: 3 });
  expect(bad.isError).toBe(true);
  expect(bad.content[0]?.text).toMatch(/query/);
  const unknown = await callTool(client, 'forget_everything', {});
  expect(unknown.isError).toBe(true);
  expect(unknown.content[0]?.text).toMatch(/unknown tool forget_everything/);
}

/** The prompt and resources: the session-start context and the receipts. */
export async function expectSessionContext(client: Client): Promise<void> {
  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name)).toContain('session_start');
  const prompt = await client.getPrompt({ name: 'session_start' });
  const promptText = (prompt.messages[0]?.content as { text: string }).text;
  expect(promptText).toContain('Next: finish the invoice export');

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual([
    'engram://session/context',
    'engram://session/receipts',
    'engram://session/start',
  ]);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['engram://receipts/{sessionId}']);

  const start = await client.readResource({ uri: 'engram://session/start' });
  expect((start.contents[0] as { text: string }).text).toBe(promptText);
  const context = await client.readResource({ uri: 'engram://session/context' });
  const contextText = (context.contents[0] as { text: string }).text;
  expect(contextText).toContain('check the billing totals');
  expect(contextText).toContain('The user wants short answers');
  const receipts = await client.readResource({ uri: 'engram://session/receipts' });
  expect(Array.isArray(JSON.parse((receipts.contents[0] as { text: string }).text))).toBe(true);
}
