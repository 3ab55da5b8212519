/**
 * Shared by the Claude Code plugin tests: write the plugin with the built `engram plugin
 * claude-code`, run the real Claude Code CLI (the executable the `@anthropic-ai/claude-agent-sdk`
 * devDependency installs as its platform package; one copy serves both) in a throwaway home folder, run a hook command line as Claude Code does (`sh -c`, with
 * CLAUDE_PLUGIN_ROOT and CLAUDE_PROJECT_DIR set, the event JSON on stdin), and serve Anthropic's
 * Messages API on the loopback so a Claude Code session runs without a network.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { childEnv, type CliResult, runJson } from '../cli/helpers.js';

/** The Claude Code CLI: the executable of the Agent SDK's package for this platform. */
export const CLAUDE = claudeExecutable();

function claudeExecutable(): string {
  const platformPackage = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  try {
    return path.join(path.dirname(createRequire(import.meta.url).resolve(`${platformPackage}/package.json`)), 'claude');
  } catch {
    throw new Error(`the Claude Code executable is missing: ${platformPackage} is not installed (npm ci installs it)`);
  }
}

/** What `engram plugin claude-code --json` prints. */
export interface WrittenPlugin {
  marketplace: string;
  plugin: string;
  node: string;
  cli: string;
  database: string | null;
  install: string;
}

/** Writes the plugin into `out` with the built CLI; `args` go before the command (e.g. `--db`). */
export function writePlugin(cwd: string, out: string, args: readonly string[] = []): Promise<WrittenPlugin> {
  return runJson<WrittenPlugin>([...args, 'plugin', 'claude-code', '--out', out], { cwd });
}

/** The command lines of the plugin's hooks/hooks.json, by event. */
export function hookCommands(plugin: string): Record<string, { matcher?: string; commands: string[] }> {
  const config = JSON.parse(readFileSync(path.join(plugin, 'hooks', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;
  };
  return Object.fromEntries(
    Object.entries(config.hooks).map(([event, groups]) => [
      event,
      { matcher: groups[0]?.matcher, commands: groups.flatMap((group) => group.hooks.map((hook) => hook.command)) },
    ]),
  );
}

/** Runs a command as a process with `input` on stdin and collects what it left. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliResult> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  // A process may exit without reading its input (the launcher, when the installation is gone).
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs one hook command line as Claude Code does: through the shell, in the agent's current
 * folder `cwd`, with the plugin's root and the project's folder in the environment and the
 * event on stdin.
 */
export function runHookCommand(
  command: string,
  event: object,
  options: { plugin: string; project: string; cwd: string; env?: Readonly<Record<string, string>> },
): Promise<CliResult> {
  const env = childEnv({ ...options.env, CLAUDE_PLUGIN_ROOT: options.plugin, CLAUDE_PROJECT_DIR: options.project });
  return runProcess('sh', ['-c', command], { cwd: options.cwd, env, input: JSON.stringify(event) });
}

/**
 * The environment of the real Claude Code CLI: its own home folder (settings, plugins), no
 * traffic but to `ANTHROPIC_BASE_URL`, and Engram's hooks in their own process.
 */
export function claudeEnv(home: string, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const env = childEnv();
  // Left out, the settings of a Claude Code that runs these tests, if one does.
  for (const name of Object.keys(env)) if (/^(ANTHROPIC_|CLAUDE)/.test(name)) delete env[name];
  return {
    ...env,
    HOME: home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...extra,
  };
}

/** Runs the real `claude <args>` in `cwd` with `env`. */
export function runClaude(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  if (!existsSync(CLAUDE)) throw new Error(`${CLAUDE} is missing: run \`npm install\` (it is a devDependency)`);
  return runProcess(CLAUDE, args, options);
}

/** A stand-in for Anthropic's Messages API on the loopback: every answer is `reply`, every request body is kept. */
export interface FakeModel {
  url: string;
  /** The bodies of the requests to /v1/messages, as text. */
  requests: string[];
  close: () => Promise<void>;
}

/** Starts a fake Messages API on 127.0.0.1 that answers each message with `reply`, streamed as the API streams. */
export async function startFakeModel(reply: string): Promise<FakeModel> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (!request.url?.startsWith('/v1/messages')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (request.url.includes('count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":10}');
        return;
      }
      requests.push(body);
      answer(response, JSON.parse(body) as { model?: string; stream?: boolean }, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function answer(response: ServerResponse, request: { model?: string; stream?: boolean }, reply: string): void {
  const usage = { input_tokens: 10, output_tokens: 3 };
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: request.model ?? 'fake', usage };
  if (!request.stream) {
    const whole = { ...message, content: [{ type: 'text', text: reply }], stop_reason: 'end_turn', stop_sequence: null };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(whole));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: object) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null } });
  send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply } });
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } });
  send('message_stop', {});
  response.end();
}
