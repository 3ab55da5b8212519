/**
 * Engram as a Claude Code plugin, installed and used the way a user does it.
 * Run it with `npx tsx examples/claude-code-plugin.ts` (after `npm ci` and `npm run build`).
 *
 *   engram plugin claude-code --out DIR               # writes the plugin, prints the install command
 *   claude plugin install engram --marketplace DIR    # one command: hooks and MCP server
 *
 * `claude` here is the real Claude Code CLI: the executable the `@anthropic-ai/claude-agent-sdk`
 * devDependency installs. Its home folder is a throwaway one, so your own Claude Code settings
 * and plugins are neither read nor changed. The model is NOT Claude: a scripted stand-in on
 * loopback answers the Messages API (ANTHROPIC_BASE_URL), so the example runs offline and without
 * an account. The built CLI writes the plugin and stores a fact in a project's database; then
 * `claude -p` asks about it in that project, and the plugin's UserPromptSubmit hook has put the
 * fact into the model's request, in an `<engram-memories>` block, which the example prints.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const CLI = path.join(root, 'dist', 'surfaces', 'cli', 'main.js');
// Claude Code's executable comes with the Agent SDK, as the SDK's package for this platform.
const CLAUDE = path.join(root, 'node_modules', '@anthropic-ai', `claude-agent-sdk-${process.platform}-${process.arch}`, 'claude');

/** Runs a command to its end with stdin closed (`claude -p` would otherwise wait for piped input). */
async function runCommand(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const running = run(command, args, options);
  running.child.stdin?.end();
  return (await running).stdout.trim();
}

/** Every string of a request a model reads: system prompt, messages, hook context. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    ['text', 'content', 'system', 'messages'].includes(key) ? textsOf(inner) : [],
  );
}

/** The scripted model: prints the memories block of each request, answers from it, streamed as the API streams. */
async function scriptedModel(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error"}}');
        return;
      }
      const request = JSON.parse(raw) as { model: string; tools?: unknown[] };
      const read = textsOf(request).join('\n');
      const block = /<engram-memories>[\s\S]*?<\/engram-memories>/.exec(read)?.[0];
      // Claude Code also asks small side questions without tools (a title); only the prompt's request is shown.
      if (request.tools?.length)
        console.log(`[model] the request at the user's prompt carries:\n${block ?? '(no memories block)'}`);
      const text = read.includes('only on Tuesdays') ? 'It deploys on Tuesdays only.' : 'I do not know.';
      const usage = { input_tokens: 10, output_tokens: 5 };
      const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model: request.model, usage };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null } });
      send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
      send('content_block_stop', { index: 0 });
      send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-claude-code-plugin-'))): Promise<void> {
  const missing = [CLI, CLAUDE].find((file) => !existsSync(file));
  if (missing) {
    console.error(`${missing} is missing: run \`npm ci && npm run build\` in the checkout first.`);
    process.exitCode = 1;
    return;
  }
  const project = path.join(directory, 'billing');
  mkdirSync(project);
  mkdirSync(path.join(directory, 'home'));
  const model = await scriptedModel();
  const env = {
    PATH: process.env.PATH ?? '',
    // Claude Code's settings, plugins and transcripts go to the throwaway home folder.
    HOME: path.join(directory, 'home'),
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'scripted-model',
    // No telemetry or update checks: the only server Claude Code talks to is the stand-in.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // Each hook in its own process, so the example leaves no resident Engram process behind.
    ENGRAM_DAEMON__ENABLED: 'false',
  };

  const engram = (args: string[], cwd: string) => runCommand(process.execPath, [CLI, ...args], { cwd, env });
  const claude = (args: string[]) => runCommand(CLAUDE, args, { cwd: project, env });

  try {
    // 1. Write the plugin with this checkout's CLI; it says which command installs it.
    const written = await engram(['plugin', 'claude-code', '--out', path.join(directory, 'plugin'), '--json'], directory);
    const { install, marketplace } = JSON.parse(written) as { install: string; marketplace: string };
    console.log(`[engram plugin claude-code] install it with: ${install}`);

    // 2. Install it with Claude Code's own command, in the throwaway home folder.
    const installed = await claude(['plugin', 'install', 'engram', '--marketplace', marketplace]);
    console.log(`[claude plugin install] ${installed.split('\n').at(-1)}`);

    // 3. A fact in the project's database (.engram/engram.db, where the plugin's hooks look).
    console.log(
      `[engram add] ${await engram(['add', 'The billing service deploys only on Tuesdays', '--tier', 'must'], project)}`,
    );

    // 4. A session in the project: the UserPromptSubmit hook recalls the fact into the model's request.
    const prompt = 'When does the billing service deploy?';
    console.log(`[user] ${prompt}`);
    console.log(`[claude -p] ${await claude(['-p', prompt])}`);
  } finally {
    model.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
