/**
 * `engramHooks` as the Claude Agent SDK runs them: inputs typed by the SDK's own declarations
 * (`UserPromptSubmitHookInput`, `PostToolUseHookInput`, …), each callback called as the SDK's
 * hook runner calls it — `(input, toolUseID, { signal })` — on a real SQLite file with the real
 * local model. Active recall at a second session's first prompt, the session-start context with
 * it, the nudge after `every_tool_turns` tool-only steps, repeat suppression across prompts, and
 * a failing Engram that answers `{}` and logs one line instead of throwing into the SDK.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type {
  HookInput,
  HookJSONOutput,
  Options,
  PostToolUseHookInput,
  SessionEndHookInput,
  SessionStartHookInput,
  StopHookInput,
  UserPromptSubmitHookInput,
} from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { NUDGE_TEXT, RECALL_OPEN } from '../src/context/format.js';
import { openSqliteStore } from '../src/entries/sqlite.js';
import type { Store } from '../src/entries/store.js';
import { createMemoryTools } from '../src/entries/tools.js';
import { type Engram, openEngram } from '../src/index.js';
import { ENGRAM_HOOK_EVENTS, type EngramHooks, engramHooks } from '../src/surfaces/claude-agent-sdk/index.js';
import { openTestEngram, sharedEmbedder } from './activation-helpers.js';

let directory: string;
const engines: Engram[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-agent-sdk-hooks-'));
});
afterEach(async () => {
  for (const engram of engines.splice(0)) await engram.close().catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
});

async function open(config: Parameters<typeof openTestEngram>[0] = {}, file = path.join(directory, 'agent.db')) {
  const { engram } = await openTestEngram(config, file);
  engines.push(engram);
  const lines: string[] = [];
  return { engram, file, lines, hooks: engramHooks({ engram, log: (line) => lines.push(line) }) };
}

/** The fields the SDK sends with every event. */
function base(sessionId: string) {
  return { session_id: sessionId, transcript_path: path.join(directory, `${sessionId}.jsonl`), cwd: directory };
}
const prompt = (sessionId: string, text: string): UserPromptSubmitHookInput => ({
  ...base(sessionId),
  hook_event_name: 'UserPromptSubmit',
  prompt: text,
  permission_mode: 'default',
});
const toolUse = (sessionId: string, toolUseId: string): PostToolUseHookInput => ({
  ...base(sessionId),
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls backups/', description: 'List backups' },
  tool_response: { stdout: 'nightly.sql.gz\n', stderr: '', interrupted: false },
  tool_use_id: toolUseId,
});
const stop = (sessionId: string, text: string): StopHookInput => ({
  ...base(sessionId),
  hook_event_name: 'Stop',
  stop_hook_active: false,
  last_assistant_message: text,
});

/**
 * Calls every callback the hooks register for the input's event, as the SDK's hook runner does
 * for each callback id Claude Code asks for: `callback(input, toolUseID, { signal })`.
 */
async function run(hooks: EngramHooks, input: HookInput, toolUseId?: string, signal = new AbortController().signal) {
  const outputs: HookJSONOutput[] = [];
  for (const matcher of hooks[input.hook_event_name] ?? []) {
    for (const callback of matcher.hooks) outputs.push(await callback(input, toolUseId, { signal }));
  }
  expect(outputs).toHaveLength(1);
  return outputs[0] as HookJSONOutput;
}

/** The additional context an output carries for `event`, or null. */
function contextOf(output: HookJSONOutput, event: string): string | null {
  expect('async' in output).toBe(false);
  if (!('hookSpecificOutput' in output) || output.hookSpecificOutput === undefined) return null;
  expect(output.hookSpecificOutput.hookEventName).toBe(event);
  return (output.hookSpecificOutput as { additionalContext?: string }).additionalContext ?? null;
}

/** A Claude Code transcript holding, per step, the assistant's text and its one tool call. */
function writeTranscript(sessionId: string, steps: readonly { text: string; toolUseId: string }[]): void {
  const lines = steps.flatMap(({ text, toolUseId }, i) => [
    JSON.stringify({ type: 'assistant', message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text }] } }),
    JSON.stringify({
      type: 'assistant',
      message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: 'Bash', input: {} }] },
    }),
  ]);
  writeFileSync(base(sessionId).transcript_path, `${lines.join('\n')}\n`);
}

/** What the model's write_session_handoff tool leaves for the next session. */
async function leaveHandoff(engram: Engram, content: string, sessionId = FIRST): Promise<void> {
  const tool = createMemoryTools({ engram, sessionId }).find((candidate) => candidate.name === 'write_session_handoff');
  await tool?.execute({ content });
}

/** `store` answering every call a turn of the event loop later. */
function withRoundTrips(store: Store): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...args: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then((answer: unknown) => new Promise((resolve) => setImmediate(() => resolve(answer))));
      };
    },
  });
}

const FIRST = '8f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const SECOND = '1e2d3c4b-5a69-4877-8695-a4b3c2d1e0f9';

describe('engramHooks', () => {
  it('is the SDK’s hooks option: one matcher for every tool on each event Engram answers', async () => {
    const { hooks } = await open();
    const options: Options = { hooks };
    expect(Object.keys(options.hooks ?? {})).toEqual([...ENGRAM_HOOK_EVENTS]);
    for (const event of ENGRAM_HOOK_EVENTS) {
      expect(hooks[event]).toHaveLength(1);
      expect(hooks[event]?.[0]?.matcher).toBeUndefined();
    }
  });

  it('recalls at the first prompt of a second session what the first one stored, after its handoff', async () => {
    const first = await open();
    expect(await run(first.hooks, prompt(FIRST, 'Set up the billing export.'))).toEqual({});
    await first.engram.remember({ text: 'The billing service stores invoices in PostgreSQL 16', kind: 'fact', tier: 'nice' });
    await first.engram.remember({ text: 'Alice likes her coffee black', kind: 'preference' });
    await leaveHandoff(first.engram, 'Export half done; next: switch the CSV to UTF-8.', FIRST);
    await first.engram.close();

    // Another engine on the same file, as a later run of the agent opens it.
    const second = await open();
    const context = contextOf(
      await run(second.hooks, prompt(SECOND, 'Which database holds the billing invoices?')),
      'UserPromptSubmit',
    );

    expect(context).toMatch(
      /^Handoff note from the previous session \(.+ UTC\):\n> Export half done; next: switch the CSV to UTF-8\./,
    );
    const recall = context?.slice(context.indexOf(RECALL_OPEN)) ?? '';
    expect(recall).toMatch(/^<engram-memories>\nRetrieved by Engram from long-term memory/);
    expect(recall).toContain('The billing service stores invoices in PostgreSQL 16');
    expect(recall).not.toContain('coffee');

    // The start context comes once per session; the next prompt has recall alone.
    const next = contextOf(
      await run(second.hooks, prompt(SECOND, 'What did the last session leave unfinished?')),
      'UserPromptSubmit',
    );
    expect(next ?? '').not.toContain('Handoff note from the previous session');
    expect(second.lines).toEqual([]);
  });

  it('gives the start context on SessionStart when the SDK reports it, and then not again with the first prompt', async () => {
    const { engram, hooks } = await open();
    await leaveHandoff(engram, 'Export half done; next: switch the CSV to UTF-8.');
    const start: SessionStartHookInput = { ...base(SECOND), hook_event_name: 'SessionStart', source: 'startup' };

    const context = contextOf(await run(hooks, start), 'SessionStart');
    expect(context).toMatch(/^Handoff note from the previous session \(.+ UTC\):\n> Export half done/);

    const first = contextOf(await run(hooks, prompt(SECOND, 'Where did we leave the export?')), 'UserPromptSubmit');
    expect(first ?? '').not.toContain('Handoff note from the previous session');
  });

  it('lets the next prompt’s recall pass over a memory injected at the last one (repeat suppression across prompts)', async () => {
    const { engram, hooks } = await open({ memory: { recall: { limit: 1 } } });
    await engram.remember({ text: 'The billing service stores invoices in PostgreSQL 16', kind: 'fact', tier: 'nice' });
    await engram.remember({ text: 'Billing invoices are exported every Friday as CSV files', kind: 'fact', tier: 'nice' });
    const question = 'Tell me about the billing invoices.';

    const first = contextOf(await run(hooks, prompt(FIRST, question)), 'UserPromptSubmit') ?? '';
    const again = contextOf(await run(hooks, prompt(FIRST, question)), 'UserPromptSubmit') ?? '';

    const injected = (text: string) => ['PostgreSQL 16', 'every Friday'].filter((fact) => text.includes(fact));
    expect(injected(first)).toHaveLength(1);
    expect(injected(again)).toHaveLength(1);
    expect(injected(again)).not.toEqual(injected(first));
  });

  it('nudges after every_tool_turns tool-only steps, with memories related to what the assistant said', async () => {
    const { engram, hooks } = await open({ memory: { intrusive: { every_tool_turns: 3 } } });
    await engram.remember({
      text: 'The nightly backup job runs at 02:00 UTC and copies the database to the backups bucket',
      kind: 'fact',
    });
    await run(hooks, prompt(FIRST, 'Why did last night’s job fail?'));
    const steps = [
      'Checking why the nightly backup failed.',
      'The backup job log shows a timeout.',
      'Looking at when the backup runs.',
    ];
    writeTranscript(
      FIRST,
      steps.map((text, i) => ({ text, toolUseId: `toolu_${i}` })),
    );

    const outputs: HookJSONOutput[] = [];
    for (let i = 0; i < 3; i++) outputs.push(await run(hooks, toolUse(FIRST, `toolu_${i}`), `toolu_${i}`));

    expect(outputs.slice(0, 2)).toEqual([{}, {}]);
    const nudge = contextOf(outputs[2] as HookJSONOutput, 'PostToolUse');
    expect(nudge?.startsWith(NUDGE_TEXT)).toBe(true);
    expect(nudge).toContain('The nightly backup job runs at 02:00 UTC');
  });

  it('counts PostToolUse calls the SDK runs at once one after another, so none is lost on a store with round trips', async () => {
    // Each store call answers a turn of the event loop later, as PostgreSQL's do over the network.
    const engram = await openEngram({
      store: withRoundTrips(openSqliteStore(path.join(directory, 'agent.db'))),
      embedder: sharedEmbedder,
      config: { memory: { intrusive: { every_tool_turns: 4 } } },
    });
    engines.push(engram);
    const hooks = engramHooks({ engram });
    await run(hooks, prompt(FIRST, 'Look at the four config files.'));
    writeTranscript(
      FIRST,
      ['a', 'b', 'c', 'd'].map((id) => ({ text: `Reading config ${id}.`, toolUseId: `toolu_${id}` })),
    );

    // Four steps, each with its own tool call: the fourth is due a nudge.
    const outputs = await Promise.all(['a', 'b', 'c', 'd'].map((id) => run(hooks, toolUse(FIRST, `toolu_${id}`), `toolu_${id}`)));

    const nudges = outputs.map((output) => contextOf(output, 'PostToolUse')).filter((text) => text !== null);
    expect(nudges).toHaveLength(1);
    expect(nudges[0]?.startsWith(NUDGE_TEXT)).toBe(true);
  });

  it('starts the run of tool-only steps again after a Stop, and ends the session on SessionEnd', async () => {
    const { engram, hooks } = await open({ memory: { intrusive: { every_tool_turns: 2 } } });
    await run(hooks, prompt(FIRST, 'Tidy the repository.'));
    expect(await run(hooks, toolUse(FIRST, 'toolu_1'), 'toolu_1')).toEqual({});
    expect(await run(hooks, stop(FIRST, 'Tidied.'))).toEqual({});
    expect(await run(hooks, toolUse(FIRST, 'toolu_2'), 'toolu_2')).toEqual({});

    const end: SessionEndHookInput = { ...base(FIRST), hook_event_name: 'SessionEnd', reason: 'other' };
    expect(await run(hooks, end)).toEqual({});
    expect((await engram.sessions()).find((session) => session.id === FIRST)?.endedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('engramHooks when Engram fails', () => {
  it('answers every event with {} and one log line when the engine is closed, never throwing into the SDK', async () => {
    const { engram, hooks, lines } = await open();
    await engram.close();

    const inputs: HookInput[] = [
      { ...base(FIRST), hook_event_name: 'SessionStart', source: 'startup' },
      prompt(FIRST, 'Which database holds the billing invoices?'),
      toolUse(FIRST, 'toolu_1'),
      stop(FIRST, 'Done.'),
      { ...base(FIRST), hook_event_name: 'SessionEnd', reason: 'other' },
    ];
    for (const input of inputs) expect(await run(hooks, input, 'toolu_1')).toEqual({});

    expect(lines).toHaveLength(inputs.length);
    expect(lines[1]).toMatch(/^engram claude-agent-sdk: UserPromptSubmit hook failed, the agent goes on without it: .*closed/);
    for (const line of lines) expect(line).not.toContain('\n');
  });

  it('answers an input it cannot read with {} and a line saying which field is wrong', async () => {
    const { hooks, lines } = await open();
    const bad = { ...prompt(FIRST, 'hello'), prompt: 42 } as unknown as UserPromptSubmitHookInput;

    expect(await run(hooks, bad)).toEqual({});
    expect(lines).toEqual([
      expect.stringMatching(
        /^engram claude-agent-sdk: UserPromptSubmit hook failed, .*: the SDK's input: UserPromptSubmit event: prompt: /,
      ),
    ]);
  });

  it('does nothing for a hook the SDK has already aborted', async () => {
    const { hooks, engram } = await open();
    const aborted = new AbortController();
    aborted.abort();

    expect(await run(hooks, prompt(FIRST, 'Which database?'), undefined, aborted.signal)).toEqual({});
    expect((await engram.sessions()).map((session) => session.id)).not.toContain(FIRST);
  });

  it('refuses to be built without an engine or with a blank scope, saying what to pass', () => {
    expect(() => engramHooks({} as never)).toThrow('engramHooks needs { engram }: the engine from openEngram()');
    expect(() => engramHooks({ engram: {} as Engram, scope: ' ' })).toThrow(/scope must be a non-empty string/);
  });
});
