import { describe, expect, it } from 'vitest';

import { parseClaudeCodeEvent } from './claude-code-events.js';

/** Fields every Claude Code event carries, as the hooks reference shows them. */
const COMMON = {
  session_id: 'abc123',
  transcript_path: '/Users/me/.claude/projects/p/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
  cwd: '/Users/me/project',
  permission_mode: 'default',
};

const parse = (value: unknown) => parseClaudeCodeEvent(JSON.stringify(value));

describe('parsing Claude Code hook events', () => {
  it('reads each handled event in its recorded shape', () => {
    expect(parse({ ...COMMON, hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-5' })).toMatchObject({
      hook_event_name: 'SessionStart',
      session_id: 'abc123',
      source: 'startup',
    });
    expect(parse({ ...COMMON, hook_event_name: 'UserPromptSubmit', prompt: 'Write a factorial function' })).toMatchObject({
      prompt: 'Write a factorial function',
    });
    expect(
      parse({
        ...COMMON,
        hook_event_name: 'PostToolUse',
        tool_name: 'Write',
        tool_input: { file_path: '/path/to/file.txt', content: 'file content' },
        tool_response: { filePath: '/path/to/file.txt', success: true },
        tool_use_id: 'toolu_01ABC123',
      }),
    ).toMatchObject({ tool_name: 'Write', tool_use_id: 'toolu_01ABC123' });
    expect(parse({ ...COMMON, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' })).toMatchObject(
      { last_assistant_message: 'Done.' },
    );
    expect(parse({ ...COMMON, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' })).toMatchObject({
      reason: 'prompt_input_exit',
    });
  });

  it('accepts the fields only some versions send, and fields it does not know', () => {
    const event = parse({ session_id: 's', hook_event_name: 'Stop', prompt_id: 'p1', effort: { level: 'medium' } });
    expect(event).toMatchObject({ hook_event_name: 'Stop', prompt_id: 'p1' });
    expect(parse({ session_id: 's', transcript_path: null, hook_event_name: 'SessionEnd' })).toMatchObject({
      transcript_path: null,
    });
  });

  it.each([
    ['', /got no input/],
    ['   \n', /got no input/],
    ['not json', /input is not JSON \(/],
    ['[1, 2]', /must be a JSON object/],
    ['null', /must be a JSON object/],
    ['{"session_id":"s"}', /handles SessionStart, UserPromptSubmit, PostToolUse, Stop, SessionEnd; got no hook_event_name/],
    ['{"session_id":"s","hook_event_name":"PreToolUse"}', /; got PreToolUse$/],
    ['{"session_id":"s","hook_event_name":7}', /got hook_event_name 7/],
    ['{"hook_event_name":"Stop"}', /Stop event: session_id:/],
    ['{"session_id":"  ","hook_event_name":"Stop"}', /session_id: session_id must be a non-empty string/],
    ['{"session_id":"s","hook_event_name":"UserPromptSubmit"}', /UserPromptSubmit event: prompt:/],
    ['{"session_id":"s","hook_event_name":"PostToolUse","tool_input":{}}', /PostToolUse event: tool_name:/],
  ])('rejects %j with a one-line message saying what is wrong', (text, message) => {
    let error: unknown;
    try {
      parseClaudeCodeEvent(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
