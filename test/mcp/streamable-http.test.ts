/**
 * MCP over streamable HTTP at `/mcp` of a running `engram serve` (a real child process),
 * driven by the MCP SDK's own client: the same tools, prompt and resources as over stdio,
 * MCP sessions bound to the tenant of the token that opened them, and receipts of recall.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LEXICAL, makeTempDir } from '../cli/helpers.js';
import { expectApiError, send, type ServeProcess, startServeProcess } from '../http/helpers.js';
import { ACME, callTool, connectHttp, exerciseEveryTool, expectSessionContext, GLOBEX } from './helpers.js';

describe('MCP over streamable HTTP (engram serve)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: ServeProcess | null = null;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    temp.remove();
  });

  it('lists the memory tools, answers a call to each, and serves the prompt and resources', async () => {
    server = await startServeProcess(temp.dir);
    const { client } = await connectHttp(`${server.url}/mcp?scope=project:x`);
    try {
      await exerciseEveryTool(client);
      await expectSessionContext(client);
    } finally {
      await client.close();
    }
    // The tools wrote to the scope the client named.
    const listed = await send<{ memories: { scope: string; key: string | null }[] }>(server.url, 'GET', '/v1/memories?kind=note');
    expect(listed.body.memories.find((memory) => memory.key === 'deploy-steps')?.scope).toBe('project:x');
  });

  it('closes an MCP session on DELETE; its id is unknown afterwards', async () => {
    server = await startServeProcess(temp.dir);
    const { client, transport } = await connectHttp(`${server.url}/mcp`);
    const id = transport.sessionId as string;
    expect(id).toEqual(expect.any(String));
    await transport.terminateSession();
    const reply = await send<{ error: { code: number; message: string } }>(server.url, 'POST', '/mcp', {
      headers: { 'mcp-session-id': id, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    expect(reply.status).toBe(404);
    expect(reply.body.error.message).toMatch(/unknown MCP session/);
    await client.close();
  });

  it('binds each MCP session to its token’s tenant', async () => {
    server = await startServeProcess(temp.dir, [], { ...LEXICAL, ENGRAM_TOKENS: `${ACME}=acme,${GLOBEX}=globex` });
    const url = `${server.url}/mcp`;
    await expect(connectHttp(url)).rejects.toThrow(/401|bearer token/i);
    const acme = await connectHttp(url, { authorization: `Bearer ${ACME}` });
    const globex = await connectHttp(url, { authorization: `Bearer ${GLOBEX}` });
    try {
      await callTool(acme.client, 'write_memory', { key: 'launch-codes', content: 'The launch code is swordfish' });
      const theirs = await callTool(globex.client, 'search_memory', { query: 'launch code swordfish' });
      expect(theirs.structuredContent?.count).toBe(0);
      const mine = await callTool(acme.client, 'search_memory', { query: 'launch code swordfish' });
      expect(mine.structuredContent?.count).toBe(1);

      // acme's session id, presented with globex's token, is unknown.
      const hijack = await send<{ error: { message: string } }>(server.url, 'POST', '/mcp', {
        token: GLOBEX,
        headers: { 'mcp-session-id': acme.transport.sessionId as string, accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'search_memory', arguments: { query: 'swordfish' } },
        },
      });
      expect(hijack.status).toBe(404);
      expect(JSON.stringify(hijack.body)).not.toContain('swordfish is');
      expectApiError(
        await send(server.url, 'POST', '/mcp', {
          headers: { 'mcp-session-id': acme.transport.sessionId as string },
          body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
        }),
        401,
        'unauthorized',
      );
    } finally {
      await acme.client.close();
      await globex.client.close();
    }
  });

  it('shows the receipts of recall for the session the client names (local model)', async () => {
    server = await startServeProcess(temp.dir, [], {});
    await send(server.url, 'POST', '/v1/memories', {
      body: { text: 'We chose PostgreSQL for the billing service', kind: 'decision', tier: 'must' },
    });
    await send(server.url, 'POST', '/v1/memories', { body: { text: 'Bob adopted a puppy called Biscuit last spring' } });
    const turn = await send<{ memories: { text: string }[]; receipt: { id: string } | null }>(
      server.url,
      'POST',
      '/v1/sessions/chat-7/before-turn',
      { body: { message: 'which database does billing use?' } },
    );
    expect(turn.body.memories.map((memory) => memory.text)).toContain('We chose PostgreSQL for the billing service');
    const receiptId = turn.body.receipt?.id;
    expect(receiptId).toEqual(expect.any(String));

    const { client } = await connectHttp(`${server.url}/mcp?session=chat-7`);
    try {
      const own = await client.readResource({ uri: 'engram://session/receipts' });
      const receipts = JSON.parse((own.contents[0] as { text: string }).text) as {
        id: string;
        sessionId: string;
        turn: number;
      }[];
      expect(receipts.map((receipt) => receipt.id)).toContain(receiptId);
      expect(receipts.every((receipt) => receipt.sessionId === 'chat-7')).toBe(true);
      const byId = await client.readResource({ uri: 'engram://receipts/chat-7' });
      expect((byId.contents[0] as { text: string }).text).toContain(receiptId as string);
      const other = await client.readResource({ uri: 'engram://receipts/nobody' });
      expect(JSON.parse((other.contents[0] as { text: string }).text)).toEqual([]);
      // Meaning, not words: the tool finds the decision for a paraphrase.
      const found = await callTool(client, 'search_memory', { query: 'which database stores the invoices' });
      const results = found.structuredContent?.results as { text: string }[];
      expect(results[0]?.text).toContain('PostgreSQL');
    } finally {
      await client.close();
    }
  });
});
