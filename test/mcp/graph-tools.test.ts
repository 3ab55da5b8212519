/**
 * The knowledge graph over MCP, as an agent configured for the MCP reference memory server
 * uses it: the official SDK client calls exactly the reference's tool names against a real
 * `engram mcp` child process (stdio) and a real `engram serve` (streamable HTTP).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dbIn, LEXICAL, makeTempDir } from '../cli/helpers.js';
import { type ServeProcess, startServeProcess } from '../http/helpers.js';
import { exerciseGraphTools } from './graph-script.js';
import { ACME, callTool, connectHttp, connectStdio, GLOBEX } from './helpers.js';

describe('the knowledge graph tools over MCP', () => {
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

  it('answers the reference server’s nine tools over stdio, and the graph outlives the connection', async () => {
    const first = await connectStdio(temp.dir, ['--db', dbIn(temp.dir)]);
    try {
      await exerciseGraphTools(first.client);
      expect(first.protocolErrors).toEqual([]);
    } finally {
      await first.client.close();
    }
    const second = await connectStdio(temp.dir, ['--db', dbIn(temp.dir), '--scope', 'project:other']);
    try {
      const opened = await callTool(second.client, 'open_nodes', { names: ['Alice'] });
      expect(opened.structuredContent?.entities).toEqual([
        { name: 'Alice', entityType: 'person', observations: ['Speaks Spanish'] },
      ]);
    } finally {
      await second.client.close();
    }
  });

  it('answers them over streamable HTTP, one graph per tenant', async () => {
    server = await startServeProcess(temp.dir, [], { ...LEXICAL, ENGRAM_TOKENS: `${ACME}=acme,${GLOBEX}=globex` });
    const acme = await connectHttp(`${server.url}/mcp`, { authorization: `Bearer ${ACME}` });
    const globex = await connectHttp(`${server.url}/mcp`, { authorization: `Bearer ${GLOBEX}` });
    try {
      await exerciseGraphTools(acme.client);
      const seen = await callTool(globex.client, 'read_graph', {});
      expect(seen.structuredContent).toEqual({ entities: [], relations: [], totalEntities: 0, nextOffset: null });
      const refused = await callTool(globex.client, 'add_observations', {
        observations: [{ entityName: 'Alice', contents: ['Crossed tenants'] }],
      });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toMatch(/no entity named Alice/);
    } finally {
      await acme.client.close();
      await globex.client.close();
    }
  });
});
