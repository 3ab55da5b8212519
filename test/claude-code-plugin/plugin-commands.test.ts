/**
 * The plugin's commands as Claude Code runs them: each command line of hooks/hooks.json through
 * the shell, with CLAUDE_PLUGIN_ROOT and CLAUDE_PROJECT_DIR set and the event JSON on stdin, and
 * the server of .mcp.json driven by the MCP SDK's client over stdio. Real child processes, real
 * SQLite files, the real local model where recall is checked.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writeClaudeCodePlugin } from '../../src/surfaces/claude-code-plugin/write-plugin.js';
import { childEnv, LEXICAL, makeTempDir, runJson, runOk } from '../cli/helpers.js';
import { hookCommands, runHookCommand, writePlugin } from './helpers.js';

const SESSION = '5b0e1c52-4f0c-4d5e-9a51-0d6c3f7c2a11';

/** The fields every event carries, as Claude Code sends them. */
function common(project: string, cwd: string) {
  return { session_id: SESSION, transcript_path: path.join(project, 'transcript.jsonl'), cwd, permission_mode: 'default' };
}

describe("the Claude Code plugin's commands", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let project: string;
  /** Where the agent has cd'ed to: hooks run there. */
  let subfolder: string;
  beforeEach(() => {
    temp = makeTempDir();
    project = path.join(temp.dir, 'billing');
    subfolder = path.join(project, 'src', 'jobs');
    mkdirSync(subfolder, { recursive: true });
  });
  afterEach(() => temp.remove());

  it("runs each hook of hooks/hooks.json on the project's database, from any folder the agent is in", async () => {
    const { plugin } = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'));
    await runOk(['add', 'The billing service deploys only on Tuesdays', '--kind', 'fact', '--tier', 'must'], { cwd: project });
    const hooks = hookCommands(plugin);
    expect(Object.keys(hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd']);
    expect(hooks.PostToolUse?.matcher).toBe('*');
    const run = (event: string, fields: object) => {
      const [command] = hooks[event]?.commands ?? [];
      expect(command, event).toBeDefined();
      return runHookCommand(
        command as string,
        { ...common(project, subfolder), hook_event_name: event, ...fields },
        {
          plugin,
          project,
          cwd: subfolder,
        },
      );
    };

    const start = await run('SessionStart', { source: 'startup' });
    expect(start).toMatchObject({ code: 0, stderr: '' });
    const prompt = await run('UserPromptSubmit', { prompt: 'When does the billing service deploy?' });
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(prompt.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(output.hookSpecificOutput.additionalContext).toMatch(
      /^<engram-memories>[\s\S]*The billing service deploys only on Tuesdays[\s\S]*<\/engram-memories>$/,
    );
    const tool = await run('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: { stdout: 'deploy.sh\n', stderr: '', interrupted: false, isImage: false },
      tool_use_id: 'toolu_01',
    });
    expect(tool).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await run('Stop', { stop_hook_active: false, last_assistant_message: 'On Tuesdays.' })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await run('SessionEnd', { reason: 'other' })).toMatchObject({ code: 0, stdout: '', stderr: '' });

    // Every event reached the project's database, none a database in the agent's folder.
    expect(existsSync(path.join(subfolder, '.engram'))).toBe(false);
    const receipts = await runJson<{ sessionId: string; query: string }[]>(['receipts', '--session', SESSION], {
      cwd: project,
      env: LEXICAL,
    });
    expect(receipts.map((receipt) => receipt.sessionId)).toContain(SESSION);
  });

  it('keeps every project in the database the plugin was written with --db', async () => {
    const shared = path.join(temp.dir, 'memories.db');
    const { plugin } = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'), ['--db', shared]);
    const [command] = hookCommands(plugin).SessionStart?.commands ?? [];
    const result = await runHookCommand(
      command as string,
      { ...common(project, subfolder), hook_event_name: 'SessionStart', source: 'startup' },
      { plugin, project, cwd: subfolder, env: LEXICAL },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(shared)).toBe(true);
    expect(existsSync(path.join(project, '.engram'))).toBe(false);
  });

  it('says in one line what to do when the installation it runs is gone, and never blocks (exit 1, not 2)', async () => {
    const missing = path.join(temp.dir, 'moved', 'dist', 'surfaces', 'cli', 'main.js');
    const { plugin } = writeClaudeCodePlugin(path.join(temp.dir, 'plugin'), {
      node: process.execPath,
      cli: missing,
      version: '0.1.0',
    });
    const [command] = hookCommands(plugin).UserPromptSubmit?.commands ?? [];
    const result = await runHookCommand(
      command as string,
      { ...common(project, project), hook_event_name: 'UserPromptSubmit', prompt: 'hi' },
      { plugin, project, cwd: project },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((line) => line.length > 0);
    expect(lines).toEqual([
      `engram: the Claude Code plugin runs Engram from ${missing} with ${process.execPath}, which is not there any more: run \`engram plugin claude-code\` from the Engram installation you use now, then start a new Claude Code session`,
    ]);
  });

  it('runs an installation whose paths hold spaces and quotes, with the arguments Claude Code gave', async () => {
    // A stand-in for Engram's CLI that prints what it was started with.
    const folder = path.join(temp.dir, "it's my engram");
    mkdirSync(folder);
    const cli = path.join(folder, 'main.js');
    writeFileSync(cli, 'console.log(JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd() }));\n');
    const database = path.join(folder, 'the "shared" memories.db');
    const { plugin } = writeClaudeCodePlugin(path.join(temp.dir, 'plugin'), {
      node: process.execPath,
      cli,
      database,
      version: '0.1.0',
    });
    const [command] = hookCommands(plugin).Stop?.commands ?? [];
    const result = await runHookCommand(command as string, { hook_event_name: 'Stop' }, { plugin, project, cwd: subfolder });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ args: ['--db', database, 'hook', 'claude-code'], cwd: realpathSync(project) });
  });

  it('serves the memory tools with the command of .mcp.json, on the project database', async () => {
    const { plugin } = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'));
    await runOk(['add', 'Invoices are numbered per calendar year', '--kind', 'fact'], { cwd: project, env: LEXICAL });
    const config = JSON.parse(readFileSync(path.join(plugin, '.mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(Object.keys(config.mcpServers)).toEqual(['engram']);
    const server = config.mcpServers.engram as { command: string; args: string[] };
    // Claude Code expands ${CLAUDE_PLUGIN_ROOT} in the server's command and sets both variables.
    const env = childEnv({ ...LEXICAL, CLAUDE_PLUGIN_ROOT: plugin, CLAUDE_PROJECT_DIR: project });
    const transport = new StdioClientTransport({
      command: server.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', plugin),
      args: server.args,
      cwd: project,
      env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-code-plugin-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toMatch(/engram/i);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['search_memory', 'write_memory', 'think']));
      const found = await client.callTool({ name: 'search_memory', arguments: { query: 'how are invoices numbered' } });
      expect(JSON.stringify(found.content)).toContain('Invoices are numbered per calendar year');
    } finally {
      await client.close();
    }
  });
});
