import type { AgentInputItem } from '@openai/agents';
import { describe, expect, it } from 'vitest';

import { NUDGE_TEXT, RECALL_OPEN } from '../../context/format.js';
import { isEngramItem, lastUserItem, stepOf, transcriptOf } from './input-items.js';

const user = (content: string): AgentInputItem => ({ type: 'message', role: 'user', content });
const system = (content: string): AgentInputItem => ({ type: 'message', role: 'system', content });
const assistant = (text: string): AgentInputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});
const call = (name: string): AgentInputItem => ({ type: 'function_call', callId: `c-${name}`, name, arguments: '{}' });
const result = (name: string): AgentInputItem => ({
  type: 'function_call_result',
  callId: `c-${name}`,
  name,
  status: 'completed',
  output: { type: 'text', text: 'ok' },
});

describe('the SDK input as the driver reads it', () => {
  it.each([
    [system(`${RECALL_OPEN}\n- a memory`), true],
    [system(`${NUDGE_TEXT}\n\n${RECALL_OPEN}`), true],
    [system(NUDGE_TEXT), true],
    [system('You are the billing assistant.'), false],
    [system(` ${RECALL_OPEN}`), false],
    [user(RECALL_OPEN), false],
    [assistant(RECALL_OPEN), false],
  ])('tells Engram’s own system items from the conversation’s: %j is %s', (item, expected) => {
    expect(isEngramItem(item)).toBe(expected);
  });

  it('reads roles, and the text of user messages with several parts', () => {
    const parts: AgentInputItem = {
      role: 'user',
      content: [
        { type: 'input_text', text: 'first' },
        { type: 'input_image', image: 'https://example.invalid/a.png' },
        { type: 'input_text', text: 'second' },
      ],
    };
    expect(transcriptOf([system('rules'), user('hi'), call('think'), result('think'), parts])).toEqual([
      { role: 'system' },
      { role: 'user', text: 'hi' },
      { role: 'function_call' },
      { role: 'function_call_result' },
      { role: 'user', text: 'first\nsecond' },
    ]);
  });

  it('finds the last user message, or none', () => {
    const last = user('second');
    expect(lastUserItem([user('first'), assistant('a'), last, call('think')])).toEqual({ item: last, key: '2\u0000second' });
    expect(lastUserItem([user('first'), assistant('a'), last, call('think')])?.item).toBe(last);
    expect(lastUserItem([call('think'), result('think')])).toBeUndefined();
  });

  it('takes the model’s step from what came since the last call: its text and its tool calls', () => {
    expect(stepOf([assistant('Reading '), assistant('the file.'), call('read_file'), result('read_file')])).toEqual({
      assistantText: 'Reading the file.',
      toolCalls: [call('read_file')],
    });
    expect(stepOf([call('think'), result('think')])).toEqual({ assistantText: '', toolCalls: [call('think')] });
  });
});
