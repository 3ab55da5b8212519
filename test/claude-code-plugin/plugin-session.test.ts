/**
 * The plugin installed the way a user installs it — `claude plugin install engram --marketplace
 * <folder>` in the real Claude Code CLI — and a real Claude Code session (`claude -p`) whose
 * model is a stand-in for Anthropic's Messages API on the loopback: the memory Engram recalls
 * reaches the model's request, Claude Code connects to the plugin's MCP server, and a failing
 * Engram leaves the turn to go on without recall.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeTempDir, runOk } from '../cli/helpers.js';
import { claudeEnv, type FakeModel, runClaude, startFakeModel, writePlugin } from './helpers.js';

describe('the Claude Code plugin in a Claude Code session', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let model: FakeModel;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    temp = makeTempDir();
    model = await startFakeModel('They deploy on Tuesdays.');
    project = path.join(temp.dir, 'billing');
    mkdirSync(project);
    env = claudeEnv(path.join(temp.dir, 'home'), { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test-loopback' });
    const { install } = await writePlugin(temp.dir, path.join(temp.dir, 'plugin'));
    const [command, ...args] = install.split(' ');
    expect(command).toBe('claude');
    const installed = await runClaude(args, { cwd: project, env });
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Successfully installed plugin: engram@engram');
  });
  afterEach(async () => {
    await model.close();
    temp.remove();
  });

  it("puts the memories Engram recalls for the prompt into the model's request", async () => {
    await runOk(['add', 'The billing service deploys only on Tuesdays', '--kind', 'fact', '--tier', 'must'], { cwd: project });
    const session = await runClaude(['-p', 'When does the billing service deploy?'], { cwd: project, env });
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout.trim()).toBe('They deploy on Tuesdays.');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatch(
      /<engram-memories>[^<]*The billing service deploys only on Tuesdays[^<]*<\/engram-memories>/,
    );
  });

  it("connects Claude Code to the plugin's MCP server", async () => {
    const listed = await runClaude(['mcp', 'list'], { cwd: project, env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/plugin:engram:engram: .*scripts\/engram mcp - ✔ Connected/);
  });

  it('answers the prompt without recall when the database cannot be read', async () => {
    mkdirSync(path.join(project, '.engram'));
    writeFileSync(path.join(project, '.engram', 'engram.db'), 'not a database, say a half-copied file');
    const session = await runClaude(['-p', 'When does the billing service deploy?'], { cwd: project, env });
    expect(session.code, session.stderr).toBe(0);
    expect(session.stdout.trim()).toBe('They deploy on Tuesdays.');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toContain('When does the billing service deploy?');
    expect(model.requests[0]).not.toContain('<engram-memories>');
  });
});
