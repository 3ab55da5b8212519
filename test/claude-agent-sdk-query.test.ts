/**
 * Engram in the Agent SDK's real `query()`: the SDK starts the Claude Code executable it installs
 * (its platform package), which calls Engram's hooks and in-process MCP server through the SDK's
 * control channel, exactly as for a user. The model is a scripted stand-in on loopback
 * (test/fixtures/scripted-messages-api.ts), so this runs offline and without an account. What it
 * shows: the Engram session is the SDK's `session_id`, the last session's handoff reaches the
 * model's first request, and a closed engine leaves the turn to finish with one log line per hook.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { query, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMemoryTools } from '../src/entries/tools.js';
import type { Engram } from '../src/index.js';
import { engramForAgentSdk, type EngramForAgentSdkOptions } from '../src/surfaces/claude-agent-sdk/index.js';
import { openTestEngram } from './activation-helpers.js';
import {
  type MessagesRequest,
  type ScriptedBlock,
  type ScriptedModel,
  startScriptedModel,
  textsOf,
  toolResultsIn,
} from './fixtures/scripted-messages-api.js';

/** The Claude Code executable ships in an optional dependency per platform; without it query() cannot start. */
function hasClaudeCode(): boolean {
  try {
    createRequire(import.meta.url).resolve(`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`);
    return true;
  } catch {
    return false;
  }
}

let directory: string;
let model: ScriptedModel | undefined;
const engines: Engram[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-agent-sdk-query-'));
  writeFileSync(path.join(directory, 'retries.toml'), 'retries = 3\n');
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  for (const engram of engines.splice(0)) await engram.close().catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
});

async function open(): Promise<Engram> {
  const { engram } = await openTestEngram({}, path.join(directory, 'agent.db'));
  engines.push(engram);
  return engram;
}

/** Runs one query() with Engram's options against the scripted model; its result message. */
async function ask(
  prompt: string,
  script: (request: MessagesRequest) => ScriptedBlock[],
  engram: Engram,
  options: Partial<EngramForAgentSdkOptions> = {},
): Promise<SDKResultMessage> {
  model = await startScriptedModel(script);
  const memory = engramForAgentSdk({ engram, ...options });
  // Claude Code's settings and transcripts go to the test's folder; the API is the stand-in.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: directory,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'scripted-model',
    // No telemetry or update checks: the only server Claude Code talks to is the stand-in.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  let result: SDKResultMessage | undefined;
  const run = query({
    prompt,
    options: { ...memory, allowedTools: [...memory.allowedTools, 'Read'], cwd: directory, env, maxTurns: 4 },
  });
  for await (const message of run) if (message.type === 'result') result = message;
  if (!result) throw new Error('query() ended without a result message');
  return result;
}

/** The script: the given tool calls, one per step, then a closing answer. */
function steps(...calls: { name: string; input: Record<string, unknown> }[]) {
  return (request: MessagesRequest): ScriptedBlock[] => {
    const call = calls[toolResultsIn(request)];
    return call ? [{ type: 'tool_use', id: `toolu_${toolResultsIn(request)}`, ...call }] : [{ type: 'text', text: 'Done.' }];
  };
}

describe.skipIf(!hasClaudeCode())('Engram in the Agent SDK’s query()', () => {
  it('keeps the turn in the Engram session of the SDK’s session_id, hooks and tools alike', async () => {
    const engram = await open();
    const result = await ask(
      'Why does the export retry?',
      steps({ name: 'mcp__engram__think', input: { thought: 'The export retries three times.' } }),
      engram,
    );

    expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
    const session = (await engram.sessions()).find((candidate) => candidate.id === result.session_id);
    expect(session).toMatchObject({ turns: 1 });
    const [thought] = await engram.list({ kinds: ['thought'] });
    expect(thought).toMatchObject({ text: 'The export retries three times.', sessionId: result.session_id });
  });

  it('puts the last session’s handoff in the model’s first request', async () => {
    const engram = await open();
    const handoff = createMemoryTools({ engram, sessionId: 'yesterday' }).find((tool) => tool.name === 'write_session_handoff');
    await handoff?.execute({ content: 'Export half done; next: switch the CSV to UTF-8.' });

    await ask('Carry on with the export.', steps(), engram);

    const first = textsOf(model?.requests[0]).join('\n');
    console.log('DEBUG', first.slice(first.indexOf('hook additional'), first.indexOf('hook additional') + 600));
    expect(first).toMatch(
      /Handoff note from the previous session \(.+ UTC\):\n> Export half done; next: switch the CSV to UTF-8\./,
    );
  });

  it('finishes the turn when Engram is closed, each hook logging one line and adding nothing', async () => {
    const engram = await open();
    await engram.close();
    const lines: string[] = [];

    const result = await ask(
      'Read the retries setting.',
      steps({ name: 'Read', input: { file_path: path.join(directory, 'retries.toml') } }),
      engram,
      { log: (line) => lines.push(line) },
    );

    expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
    expect(lines.map((line) => /^engram claude-agent-sdk: (\w+) hook failed, .*closed/.exec(line)?.[1])).toEqual([
      'UserPromptSubmit',
      'PostToolUse',
      'Stop',
    ]);
    expect(textsOf(model?.requests).join('\n')).not.toContain('<engram-memories>');
  });
});
