/**
 * The subpath entries are public API too: their export lists change only on purpose (and
 * api/engram-api.md records their declarations, test/api-report.test.ts).
 * `engram/internal` (for Engram's own benchmarks and tools, no compatibility promise) is pinned
 * as well, so that what leaves the library core is a decision.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as maintenance from '../src/entries/maintenance.js';
import * as model from '../src/entries/model.js';
import * as postgres from '../src/entries/postgres.js';
import * as sqlite from '../src/entries/sqlite.js';
import * as store from '../src/entries/store.js';
import * as tools from '../src/entries/tools.js';
import * as internal from '../src/internal.js';
import * as aiSdk from '../src/surfaces/ai-sdk/index.js';
import * as claudeAgentSdk from '../src/surfaces/claude-agent-sdk/index.js';
import * as http from '../src/surfaces/http/index.js';
import * as langgraph from '../src/surfaces/langgraph/index.js';
import * as mcp from '../src/surfaces/mcp/index.js';
import * as openaiAgents from '../src/surfaces/openai-agents/index.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, { types: string; import: string }>;
};

describe('the subpath exports', () => {
  it('engram/mcp exports exactly these runtime names', () => {
    expect(Object.keys(mcp).sort()).toEqual(
      [
        'McpHttpEndpoint',
        'PendingCalls',
        'RECEIPTS_TEMPLATE',
        'SCOPE_HEADER',
        'SESSION_CONTEXT_URI',
        'SESSION_HEADER',
        'SESSION_RECEIPTS_URI',
        'SESSION_START_URI',
        'createEngramMcpServer',
        'serveMcpOverStdio',
      ].sort(),
    );
  });

  it('engram/http exports exactly these runtime names', () => {
    expect(Object.keys(http).sort()).toEqual(
      [
        'API_ROUTES',
        'ApiError',
        'DEFAULT_MAX_BODY_BYTES',
        'DEFAULT_PORT',
        'InFlight',
        'MIN_TOKEN_CHARS',
        'TenantEngines',
        'TenantResolver',
        'assertBindAllowed',
        'buildOpenApiDocument',
        'createApiApp',
        'isLoopbackHost',
        'parseTokenBindings',
        'startHttpServer',
      ].sort(),
    );
  });

  it('engram/store is types and its version only; the drivers are one function each', () => {
    expect(Object.keys(store)).toEqual(['STORE_API_VERSION']);
    expect(store.STORE_API_VERSION).toBe(1);
    expect(Object.keys(sqlite)).toEqual(['openSqliteStore']);
    expect(Object.keys(postgres)).toEqual(['openPostgresStore']);
  });

  it('engram/maintenance exports exactly these runtime names', () => {
    expect(Object.keys(maintenance).sort()).toEqual(['DOCTOR_CHECKS', 'backupDatabase', 'doctorDatabase']);
  });

  it('no runtime name is exported by two public entries', async () => {
    const root = await import('../src/index.js');
    const entries = {
      ...{ root, tools, model, maintenance, store, sqlite, postgres, mcp, http },
      ...{ aiSdk, langgraph, claudeAgentSdk, openaiAgents },
    };
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [entry, exported] of Object.entries(entries)) {
      for (const name of Object.keys(exported)) {
        if (seen.has(name)) twice.push(`${name} in ${seen.get(name)} and ${entry}`);
        seen.set(name, entry);
      }
    }
    expect(twice).toEqual([]);
  });

  it('engram/internal exports exactly these runtime names', () => {
    expect(Object.keys(internal).sort()).toEqual(
      [
        'PostgresStore',
        'SqliteStore',
        'checkpointerProcessId',
        'columnSizes',
        'createEmbedderFromConfig',
        'createScratchSchema',
        'describeIssues',
        'extractGraph',
        'formatRecallBlock',
        'indexSizes',
        'relationSizes',
        'scoreExtraction',
        'settleTables',
        'spaceByTable',
        'withEmbeddingCache',
      ].sort(),
    );
  });

  it('engram/ai-sdk exports exactly these runtime names', () => {
    expect(Object.keys(aiSdk).sort()).toEqual(['engramMiddleware']);
  });

  it('engram/ai-sdk needs no ai package at run time (an optional peer dependency: types only)', () => {
    const built = new URL('../dist/surfaces/ai-sdk/', import.meta.url);
    const files = readdirSync(built).filter((file) => file.endsWith('.js'));
    expect(files).toContain('engram-middleware.js');
    for (const file of files) expect(readFileSync(new URL(file, built), 'utf8'), file).not.toMatch(/from ['"]ai(\/|['"])/);
  });

  it('engram/langgraph exports exactly these runtime names', () => {
    expect(Object.keys(langgraph).sort()).toEqual(['EngramStore', 'scopeOfNamespace']);
  });

  it('engram/langgraph needs only @langchain/langgraph-checkpoint at run time (an optional peer dependency)', () => {
    const built = new URL('../dist/surfaces/langgraph/', import.meta.url);
    const files = readdirSync(built).filter((file) => file.endsWith('.js'));
    expect(files).toContain('engram-store.js');
    const imported = files.flatMap((file) =>
      [...readFileSync(new URL(file, built), 'utf8').matchAll(/from ['"](@langchain\/[^'"]+)['"]/g)].map((match) => match[1]),
    );
    expect([...new Set(imported)]).toEqual(['@langchain/langgraph-checkpoint']);
  });

  it('engram/claude-agent-sdk exports exactly these runtime names', () => {
    expect(Object.keys(claudeAgentSdk).sort()).toEqual(
      ['ENGRAM_HOOK_EVENTS', 'engramForAgentSdk', 'engramHooks', 'engramMcpServer', 'engramToolNames'].sort(),
    );
  });

  it('engram/claude-agent-sdk needs no @anthropic-ai/claude-agent-sdk at run time (an optional peer dependency: types only)', () => {
    const built = new URL('../dist/surfaces/claude-agent-sdk/', import.meta.url);
    const files = readdirSync(built).filter((file) => file.endsWith('.js'));
    expect(files).toContain('engram-hooks.js');
    for (const file of files) expect(readFileSync(new URL(file, built), 'utf8'), file).not.toMatch(/from ['"]@anthropic-ai\//);
  });

  it('engram/openai-agents exports exactly these runtime names', () => {
    expect(Object.keys(openaiAgents).sort()).toEqual(['engramMemory', 'toAgentTools']);
  });

  it('engram/openai-agents needs only @openai/agents at run time (an optional peer dependency)', () => {
    const built = new URL('../dist/surfaces/openai-agents/', import.meta.url);
    const files = readdirSync(built).filter((file) => file.endsWith('.js'));
    expect(files).toContain('engram-memory.js');
    const imported = files.flatMap((file) =>
      [...readFileSync(new URL(file, built), 'utf8').matchAll(/from ['"](@openai\/[^'"]+|openai)['"]/g)].map((match) => match[1]),
    );
    expect([...new Set(imported)]).toEqual(['@openai/agents']);
  });

  it.each([
    ['./ai-sdk', aiSdk],
    ['./langgraph', langgraph],
    ['./claude-agent-sdk', claudeAgentSdk],
    ['./openai-agents', openaiAgents],
    ['./mcp', mcp],
    ['./http', http],
    ['./tools', tools],
    ['./model', model],
    ['./maintenance', maintenance],
    ['./store', store],
    ['./sqlite', sqlite],
    ['./postgres', postgres],
    ['./internal', internal],
  ])('package.json maps %s to the built module with the same exports', async (subpath, source) => {
    const entry = manifest.exports[subpath];
    expect(entry).toBeDefined();
    const built = (await import(new URL(`../${entry?.import}`, import.meta.url).href)) as Record<string, unknown>;
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
    expect(entry?.types).toBe(entry?.import.replace(/\.js$/, '.d.ts'));
  });
});
