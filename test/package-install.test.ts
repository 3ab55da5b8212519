/**
 * The package, installed: `npm pack` of this checkout installed into an empty folder outside it
 * (test/fixtures/packed-install.ts), then every way a user starts Engram, run from that folder with
 * no checkout in sight: `npx engram add` and `search` with the local model, `engram mcp` driven by
 * the MCP SDK's client, the Claude Code hook and plugin, and `engram serve` with its inspector.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packAndInstall, type PackedInstall, run } from './fixtures/packed-install.js';

describe('the packed package, installed', () => {
  let installed: PackedInstall;
  beforeAll(async () => {
    installed = await packAndInstall();
  }, 300_000);
  afterAll(() => installed?.remove());

  const engram = (args: readonly string[], input?: string) => run(installed.bin, args, installed.app, installed.env, input);

  it('holds dist/ and the README, not the sources, the tests or the build stamp, with engram executable', async () => {
    const listing = await run('tar', ['tzvf', installed.tarball], installed.dir, installed.env);
    expect(listing.code).toBe(0);
    const files = listing.stdout.split('\n').filter((line) => line !== '');
    const names = files.map((line) => line.split(/\s+/).pop() as string);
    expect(names).toEqual(expect.arrayContaining(['package/package.json', 'package/README.md', 'package/dist/index.js']));
    expect(names.filter((name) => !/^package\/(dist\/.+\.(js|d\.ts|js\.map)|package\.json|README\.md)$/.test(name))).toEqual([]);
    expect(files.find((line) => line.endsWith(' package/dist/surfaces/cli/main.js'))).toMatch(/^-rwxr-xr-x/);
    // The binary runs from the installed copy, not from the checkout.
    expect(realpathSync(installed.bin)).toBe(
      path.join(installed.app, 'node_modules', 'engram', 'dist', 'surfaces', 'cli', 'main.js'),
    );
  });

  it('resolves every entry of package.json exports, with its types, and opens an engine on engram/sqlite', async () => {
    const installedPackage = path.join(installed.app, 'node_modules', 'engram');
    const manifest = JSON.parse(readFileSync(path.join(installedPackage, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; import: string }>;
    };
    const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
      typeof target === 'string'
        ? []
        : [{ name: subpath === '.' ? 'engram' : `engram/${subpath.slice(2)}`, types: target.types }],
    );
    expect(entries.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['engram', 'engram/tools', 'engram/model', 'engram/store', 'engram/sqlite', 'engram/postgres']),
    );
    for (const entry of entries) expect(existsSync(path.join(installedPackage, entry.types)), entry.types).toBe(true);
    // An entry for a framework (an optional peer dependency, not installed here) says which package it needs.
    const script = `
      for (const name of ${JSON.stringify(entries.map((entry) => entry.name))}) {
        try {
          console.log(name, Object.keys(await import(name)).length);
        } catch (error) {
          if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
          console.log(name, 'needs', /Cannot find package '([^']+)'/.exec(error.message)?.[1]);
        }
      }
      const { openEngram } = await import('engram');
      const { openSqliteStore } = await import('engram/sqlite');
      const engram = await openEngram({ store: openSqliteStore('entries.db'), embedder: null });
      await engram.remember('Deploys happen on Tuesdays');
      console.log((await engram.search('deploys'))[0].memory.text);
      await engram.close();
    `;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], installed.app, installed.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, -1).map((line) => line.split(' ')[0])).toEqual(entries.map((entry) => entry.name));
    const needing = lines.slice(0, -1).filter((line) => line.split(' ')[1] === 'needs');
    // engram/claude-agent-sdk reads the Agent SDK for its types only: it loads without it.
    expect(lines).toContainEqual(expect.stringMatching(/^engram\/claude-agent-sdk \d+$/));
    expect(needing).toEqual([
      'engram/langgraph needs @langchain/langgraph-checkpoint',
      'engram/openai-agents needs @openai/agents',
    ]);
    // engram/store exports types and STORE_API_VERSION only; every other entry has a value at run time.
    for (const line of lines.slice(0, -1).filter((line) => !needing.includes(line))) {
      expect(Number(line.split(' ')[1]), line).toBeGreaterThan(0);
    }
    expect(lines.at(-1)).toBe('Deploys happen on Tuesdays');
  });

  it('brings one TF.js, 4.22, and not the encoder package its tokenizer is checked against', () => {
    const modules = path.join(installed.app, 'node_modules');
    const manifest = JSON.parse(readFileSync(path.join(modules, 'engram', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('@tensorflow-models/universal-sentence-encoder');
    expect(readdirSync(modules)).not.toContain('@tensorflow-models');
    const tfjsCores = readdirSync(modules, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith(path.join('@tensorflow', 'tfjs-core', 'package.json')),
    );
    expect(
      tfjsCores.map((file) => (JSON.parse(readFileSync(path.join(modules, file), 'utf8')) as { version: string }).version),
    ).toEqual(['4.22.0']);
  });

  it('stores and finds a memory with npx engram and the local model, printing nothing else', async () => {
    const added = await run(
      'npx',
      ['engram', 'add', 'We chose PostgreSQL for billing', '--kind', 'decision'],
      installed.app,
      installed.env,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^remembered \w+ {2}decision\/unknown {2}global {2}We chose PostgreSQL for billing\n$/);

    const found = await run(
      'npx',
      ['engram', 'search', 'which database do we use for invoices', '--json'],
      installed.app,
      installed.env,
    );
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    const hits = JSON.parse(found.stdout) as { memory: { text: string }; relevance: number }[];
    // No word in common: only the embedding model can find it.
    expect(hits[0]?.memory.text).toBe('We chose PostgreSQL for billing');
  });

  it('serves MCP over stdio to the MCP SDK client', async () => {
    const transport = new StdioClientTransport({
      command: installed.bin,
      args: ['mcp', '--db', path.join(installed.dir, 'mcp.db'), '--scope', 'project:billing'],
      cwd: installed.app,
      env: installed.env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['search_memory', 'write_memory', 'read_graph']));
      await client.callTool({ name: 'write_memory', arguments: { key: 'deploys', content: 'Deploys happen on Tuesdays' } });
      const result = (await client.callTool({ name: 'search_memory', arguments: { query: 'when are deploys' } })) as {
        content: { type: string; text: string }[];
        isError?: boolean;
      };
      expect(result.isError ?? false).toBe(false);
      expect(result.content[0]?.text).toContain('Deploys happen on Tuesdays');
    } finally {
      await client.close();
    }
    // Only its own lines: where it serves, and that the client hung up.
    expect(stderr.split('\n').filter((line) => line !== '' && !line.startsWith('engram mcp: '))).toEqual([]);
  });

  it('answers Claude Code’s SessionStart and UserPromptSubmit hooks', async () => {
    const db = path.join(installed.dir, 'hook.db');
    expect((await engram(['add', 'The billing service stores invoices in PostgreSQL 16', '--db', db])).code).toBe(0);
    expect((await engram(['handoff', 'Left off at the CSV importer', '--db', db])).code).toBe(0);
    const common = {
      session_id: '00893aaf-19fa-41d2-8238-13269b9b3ca0',
      transcript_path: path.join(installed.dir, 'transcript.jsonl'),
      cwd: installed.app,
      permission_mode: 'default',
    };
    const hook = async (event: Record<string, unknown>) => {
      const result = await engram(['hook', 'claude-code', '--db', db], JSON.stringify({ ...common, ...event }));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
        .hookSpecificOutput;
    };

    const started = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(started.hookEventName).toBe('SessionStart');
    expect(started.additionalContext).toContain('Left off at the CSV importer');
    const prompted = await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'Which database holds the billing invoices?' });
    expect(prompted.hookEventName).toBe('UserPromptSubmit');
    expect(prompted.additionalContext).toContain('<engram-memories>');
    expect(prompted.additionalContext).toContain('PostgreSQL 16');
  });

  it('writes a Claude Code plugin whose hooks run the installed package', async () => {
    const written = await engram(['plugin', 'claude-code', '--out', path.join(installed.dir, 'claude-plugin'), '--json']);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    const { plugin, cli } = JSON.parse(written.stdout) as { plugin: string; cli: string };
    expect(realpathSync(cli)).toBe(
      realpathSync(path.join(installed.app, 'node_modules', 'engram', 'dist', 'surfaces', 'cli', 'main.js')),
    );

    expect((await run(installed.bin, ['handoff', 'Left off at the CSV importer'], installed.app, installed.env)).code).toBe(0);
    const hooks = JSON.parse(readFileSync(path.join(plugin, 'hooks', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = hooks.hooks.SessionStart?.[0]?.hooks[0]?.command as string;
    // As Claude Code runs it: through the shell, the plugin's root and the project's folder set.
    const started = await run(
      'sh',
      ['-c', command],
      installed.app,
      { ...installed.env, CLAUDE_PLUGIN_ROOT: plugin, CLAUDE_PROJECT_DIR: installed.app },
      JSON.stringify({ session_id: 'c6b1f4f0-1d7e-4f57-9d43-3b1f0f3d9a10', hook_event_name: 'SessionStart', source: 'startup' }),
    );
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    expect(started.stdout).toContain('Left off at the CSV importer');
  });

  it('serves the HTTP API and the inspector, and stops on Ctrl+C', async () => {
    const child = spawn(installed.bin, ['serve', '--port', '0', '--db', path.join(installed.dir, 'serve.db')], {
      cwd: installed.app,
      env: installed.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      let stdout = '';
      const base = await new Promise<string>((resolve, reject) => {
        child.on('close', () => reject(new Error(`engram serve exited early: ${stdout}`)));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const url = /inspector\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout)?.[1];
          if (url !== undefined && stdout.includes('Ctrl+C')) resolve(url);
        });
      });
      const health = await fetch(`${base}/health`);
      expect(await health.json()).toEqual({ status: 'ok', version: '0.1.0' });
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('Engram inspector');
    } finally {
      child.kill('SIGINT');
    }
    expect(await closed).toBe(0);
  });
});
