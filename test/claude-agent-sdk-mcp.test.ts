/**
 * Engram's memory tools as the Agent SDK's in-process MCP server, driven by a real MCP client
 * over the MCP SDK's InMemoryTransport (the SDK connects the server the same way, through its
 * own in-process transport): the tools listed with their JSON Schema, a write in one engine found
 * by search in a second engine on the same file, Engram's errors as `isError` results, and —
 * with `engramForAgentSdk` — the tools writing for the session the hooks last saw.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createSdkMcpServer, type McpSdkServerConfigWithInstance, type Options } from '@anthropic-ai/claude-agent-sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMemoryTools, GRAPH_TOOL_NAMES, MEMORY_TOOL_NAMES, toMcpTools } from '../src/entries/tools.js';
import type { Engram } from '../src/index.js';
import {
  engramForAgentSdk,
  engramMcpServer,
  type EngramMcpServerOptions,
  engramToolNames,
} from '../src/surfaces/claude-agent-sdk/index.js';
import { openTestEngram } from './activation-helpers.js';

let directory: string;
const engines: Engram[] = [];
const clients: Client[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-agent-sdk-mcp-'));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const engram of engines.splice(0)) await engram.close().catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
});

async function open(): Promise<Engram> {
  const { engram } = await openTestEngram({}, path.join(directory, 'agent.db'));
  engines.push(engram);
  return engram;
}

/** A client connected to the config's server, as the SDK connects it: `instance.connect(transport)`. */
async function connect(config: McpSdkServerConfigWithInstance): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await config.instance.connect(serverSide);
  const client = new Client({ name: 'agent-sdk-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function serve(engram: Engram, options: Omit<EngramMcpServerOptions, 'engram'> = {}) {
  return connect(engramMcpServer({ engram, ...options }));
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

const SESSION = '8f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('engramMcpServer', () => {
  it('is the config createSdkMcpServer returns, ready for query()’s mcpServers', async () => {
    const engram = await open();
    const config = engramMcpServer({ engram });
    const options: Options = { mcpServers: { engram: config }, allowedTools: engramToolNames() };

    expect(Object.keys(config).sort()).toEqual(Object.keys(createSdkMcpServer({ name: 'engram' })).sort());
    expect(config).toMatchObject({ type: 'sdk', name: 'engram' });
    expect(options.allowedTools).toEqual(MEMORY_TOOL_NAMES.map((name) => `mcp__engram__${name}`));
  });

  it('lists the memory tools with the JSON Schema every other provider gets, kept out of tool search', async () => {
    const engram = await open();
    const { tools } = await (await serve(engram)).listTools();

    expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES]);
    const schemas = toMcpTools(createMemoryTools({ engram }));
    for (const [index, tool] of tools.entries()) {
      expect(tool.inputSchema).toEqual(schemas[index]?.inputSchema);
      expect(tool._meta).toEqual({ 'anthropic/alwaysLoad': true });
    }
  });

  it('adds the knowledge-graph tools when asked, and leaves them in tool search with alwaysLoad false', async () => {
    const engram = await open();
    const { tools } = await (await serve(engram, { graphTools: true, alwaysLoad: false, name: 'memory' })).listTools();

    expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES, ...GRAPH_TOOL_NAMES]);
    expect(tools.every((tool) => tool._meta === undefined)).toBe(true);
    expect(engramToolNames({ name: 'memory', graphTools: true })).toContain('mcp__memory__search_nodes');
  });

  it('keeps what write_memory stores, and search_memory finds it through a second engine on the same file', async () => {
    const first = await open();
    const written = await call(await serve(first, { sessionId: SESSION }), 'write_memory', {
      key: 'billing-db',
      content: 'The billing service stores invoices in PostgreSQL 16.',
    });
    expect(written.isError).toBeUndefined();
    expect(written.structuredContent).toMatchObject({ key: 'billing-db', created: true });
    await first.close();

    const second = await open();
    const found = await call(await serve(second), 'search_memory', { query: 'Which database keeps the invoices?' });

    expect(found.isError).toBeUndefined();
    expect(textOf(found)).toContain('The billing service stores invoices in PostgreSQL 16.');
    const [memory] = await second.list({ kinds: ['note'] });
    expect(memory).toMatchObject({ key: 'billing-db', sessionId: SESSION, source: 'agent' });
  });

  it('answers a bad argument and a closed engine as isError results with Engram’s message, for the model to read', async () => {
    const engram = await open();
    const client = await serve(engram);

    const bad = await call(client, 'write_memory', { key: 'x' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/content is required/);

    await engram.close();
    const closed = await call(client, 'search_memory', { query: 'anything' });
    expect(closed.isError).toBe(true);
    expect(textOf(closed)).toMatch(/closed/);
  });

  it('refuses a server name that cannot be part of a tool name, saying what is allowed', async () => {
    const engram = await open();
    expect(() => engramMcpServer({ engram, name: 'my memory' })).toThrow(/name must be letters, digits, "_" or "-"/);
    expect(() => engramMcpServer({} as never)).toThrow('engramMcpServer needs { engram }');
  });
});

describe('engramForAgentSdk', () => {
  it('gives query() its hooks, its MCP server and the tool names to allow', async () => {
    const engram = await open();
    const parts = engramForAgentSdk({ engram });
    const options: Options = { ...parts, maxTurns: 3 };

    expect(Object.keys(options.hooks ?? {})).toContain('UserPromptSubmit');
    expect(Object.keys(parts.mcpServers)).toEqual(['engram']);
    expect(parts.allowedTools).toEqual(engramToolNames());
  });

  it('has the tools write for the session the hooks last saw (the given one before any hook), in its scope', async () => {
    const engram = await open();
    const parts = engramForAgentSdk({ engram, sessionId: 'before-any-hook', scope: 'project:billing' });
    const client = await connect(parts.mcpServers.engram as McpSdkServerConfigWithInstance);

    await call(client, 'think', { thought: 'Nothing known yet about the export.' });
    const [callback] = parts.hooks.UserPromptSubmit?.[0]?.hooks ?? [];
    await callback?.(
      {
        session_id: SESSION,
        transcript_path: path.join(directory, 't.jsonl'),
        cwd: directory,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'Fix the export.',
      },
      undefined,
      { signal: new AbortController().signal },
    );
    await call(client, 'think', { thought: 'The export writes Latin-1; it should write UTF-8.' });

    const thoughts = await engram.list({ kinds: ['thought'] });
    expect(Object.fromEntries(thoughts.map((memory) => [memory.text, memory.sessionId]))).toEqual({
      'Nothing known yet about the export.': 'before-any-hook',
      'The export writes Latin-1; it should write UTF-8.': SESSION,
    });
    expect(new Set(thoughts.map((memory) => memory.scope))).toEqual(new Set(['project:billing']));
  });
});
