/**
 * `engram/mcp` and `engram/http` are public API too: their export lists change only on purpose.
 * `engram/internal` (for Engram's own benchmarks and tools, no compatibility promise) is pinned
 * as well, so that what leaves the library core is a decision.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import * as internal from '../src/internal.js';
import * as aiSdk from '../src/surfaces/ai-sdk/index.js';
import * as http from '../src/surfaces/http/index.js';
import * as mcp from '../src/surfaces/mcp/index.js';

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

  it('engram/internal exports exactly these runtime names', () => {
    expect(Object.keys(internal).sort()).toEqual(
      [
        'PostgresStore',
        'SqliteStore',
        'createEmbedderFromConfig',
        'createScratchSchema',
        'describeIssues',
        'extractGraph',
        'formatRecallBlock',
        'scoreExtraction',
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

  it.each([
    ['./ai-sdk', aiSdk],
    ['./mcp', mcp],
    ['./http', http],
    ['./internal', internal],
  ])('package.json maps %s to the built module with the same exports', async (subpath, source) => {
    const entry = manifest.exports[subpath];
    expect(entry).toBeDefined();
    const built = (await import(new URL(`../${entry?.import}`, import.meta.url).href)) as Record<string, unknown>;
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
    expect(entry?.types).toBe(entry?.import.replace(/\.js$/, '.d.ts'));
  });
});
