/**
 * `engram plugin claude-code` writes a plugin folder the real Claude Code CLI accepts: `claude
 * plugin validate --strict` passes it (no error, no warning) and refuses it once a manifest is
 * broken, so the check can fail. The command's own mistakes are one line and write nothing.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CLI, expectOneLineError, makeTempDir, runCli } from '../cli/helpers.js';
import { claudeEnv, runClaude, writePlugin } from './helpers.js';

interface ValidationReport {
  success: boolean;
  manifest: { type: string; errors: { path: string; message: string }[]; warnings: unknown[] };
  provides: {
    hooks: { event: string; command: string }[];
    mcpServers: { name: string; type: string; target: string; args: string[] }[];
  } | null;
}

describe('engram plugin claude-code', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.remove());

  async function validate(folder: string): Promise<{ code: number | null; report: ValidationReport }> {
    const result = await runClaude(['plugin', 'validate', '--strict', '--json', folder], {
      cwd: temp.dir,
      env: claudeEnv(path.join(temp.dir, 'home')),
    });
    return { code: result.code, report: JSON.parse(result.stdout) as ValidationReport };
  }

  it('writes a marketplace and a plugin that `claude plugin validate --strict` passes', async () => {
    const written = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'));
    expect(written).toMatchObject({ node: process.execPath, cli: CLI, database: null });
    expect(written.plugin).toBe(path.join(written.marketplace, 'engram'));
    expect(written.install).toBe(`claude plugin install engram --marketplace ${written.marketplace}`);

    const marketplace = await validate(written.marketplace);
    expect(marketplace.code).toBe(0);
    expect(marketplace.report).toMatchObject({ success: true, manifest: { type: 'marketplace', errors: [], warnings: [] } });

    const plugin = await validate(written.plugin);
    expect(plugin.code).toBe(0);
    expect(plugin.report).toMatchObject({ success: true, manifest: { type: 'plugin', errors: [], warnings: [] } });
    const command = '"${CLAUDE_PLUGIN_ROOT}/scripts/engram" hook claude-code';
    expect(plugin.report.provides?.hooks).toEqual(
      ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd'].map((event) =>
        expect.objectContaining({ event, type: 'command', command }),
      ),
    );
    expect(plugin.report.provides?.mcpServers).toEqual([
      expect.objectContaining({ name: 'engram', type: 'stdio', target: '${CLAUDE_PLUGIN_ROOT}/scripts/engram', args: ['mcp'] }),
    ]);
    // The launcher is executable: Claude Code runs it directly, as the MCP server's command.
    expect(statSync(path.join(written.plugin, 'scripts', 'engram')).mode & 0o111).toBe(0o111);
  });

  /** A manifest as JSON, loosely typed: the cases below break it. */
  type Manifest = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it.each([
    ['a plugin.json without its name', '.claude-plugin/plugin.json', (json: Manifest) => delete json.name, /name/],
    [
      'a hook of a type Claude Code does not know',
      'hooks/hooks.json',
      (json: Manifest) => (json.hooks.UserPromptSubmit[0].hooks[0].type = 'shell'),
      /type|UserPromptSubmit/,
    ],
  ])('is refused by the validator with %s', async (_name, file, breakIt, message) => {
    const written = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'));
    const broken = path.join(temp.dir, 'broken');
    cpSync(written.plugin, broken, { recursive: true });
    const target = path.join(broken, file);
    const json = JSON.parse(readFileSync(target, 'utf8')) as Manifest;
    breakIt(json);
    writeFileSync(target, JSON.stringify(json));

    const { code, report } = await validate(broken);
    expect(code).toBe(1);
    expect(report.success).toBe(false);
    expect(JSON.stringify(report)).toMatch(message);
  });

  it('pins one database for every project with --db, and writes over the folder it wrote before', async () => {
    const out = path.join(temp.dir, 'plugin');
    await writePlugin(temp.dir, out);
    const again = await writePlugin(temp.dir, out, ['--db', 'memories/engram.db']);
    expect(again.database).toBe(path.join(temp.dir, 'memories', 'engram.db'));
    const launcher = readFileSync(path.join(again.plugin, 'scripts', 'engram'), 'utf8');
    expect(launcher).toContain(`exec "$node" "$cli" --db '${path.join(temp.dir, 'memories', 'engram.db')}' "$@"`);
  });

  it('prints the command that installs it', async () => {
    const result = await runCli(['plugin', 'claude-code', '--out', path.join(temp.dir, 'my plugin')], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`claude plugin install engram --marketplace '${path.join(temp.dir, 'my plugin')}'`);
    expect(result.stdout).toContain("each project's .engram/engram.db");
  });

  it('refuses a folder that holds other files, and a file, writing nothing', async () => {
    const folder = path.join(temp.dir, 'notes');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'todo.md'), 'mine');
    expectOneLineError(
      await runCli(['plugin', 'claude-code', '--out', folder], { cwd: temp.dir }),
      /notes already holds other files: give --out a new or empty folder/,
    );
    expect(existsSync(path.join(folder, '.claude-plugin'))).toBe(false);
    expect(readFileSync(path.join(folder, 'todo.md'), 'utf8')).toBe('mine');

    expectOneLineError(
      await runCli(['plugin', 'claude-code', '--out', path.join(folder, 'todo.md')], { cwd: temp.dir }),
      /todo\.md is a file: give --out a folder/,
    );
    expect(readFileSync(path.join(folder, 'todo.md'), 'utf8')).toBe('mine');
  });
});
