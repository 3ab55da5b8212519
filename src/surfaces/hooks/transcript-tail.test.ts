import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { groupMessages, lastAssistantText, messageOfToolUse, readAssistantTail } from './transcript-tail.js';

/** Transcript entries in Claude Code's JSONL shape: one content block per entry, as it writes them. */
const line = (value: unknown) => JSON.stringify(value);
const assistant = (id: string, block: unknown) =>
  line({ type: 'assistant', uuid: `u-${id}`, message: { id, role: 'assistant', content: [block] } });
const toolResult = (id: string) =>
  line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });

const TRANSCRIPT = [
  line({ type: 'user', message: { role: 'user', content: 'Fix the billing export' } }),
  assistant('msg_1', { type: 'text', text: 'Let me look at the export code first.' }),
  assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/x.ts' } }),
  toolResult('toolu_1'),
  assistant('msg_2', { type: 'tool_use', id: 'toolu_2', name: 'Grep', input: { pattern: 'csv' } }),
  assistant('msg_2', { type: 'tool_use', id: 'toolu_3', name: 'Grep', input: { pattern: 'tsv' } }),
  toolResult('toolu_2'),
  toolResult('toolu_3'),
  assistant('msg_3', { type: 'text', text: 'The export now writes UTF-8.' }),
].join('\n');

describe('reading the tail of a Claude Code transcript', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-transcript-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('groups the entries of one model message and keeps its text and tool calls in order', () => {
    const messages = groupMessages(TRANSCRIPT.split('\n'));
    expect(messages).toEqual([
      { id: 'msg_1', text: 'Let me look at the export code first.', toolUseIds: ['toolu_1'] },
      { id: 'msg_2', text: '', toolUseIds: ['toolu_2', 'toolu_3'] },
      { id: 'msg_3', text: 'The export now writes UTF-8.', toolUseIds: [] },
    ]);
  });

  it('finds the message that made a tool call, and the latest thing the assistant said', () => {
    const messages = groupMessages(TRANSCRIPT.split('\n'));
    expect(messageOfToolUse(messages, 'toolu_3')?.toolUseIds).toEqual(['toolu_2', 'toolu_3']);
    expect(messageOfToolUse(messages, 'toolu_9')).toBeNull();
    expect(lastAssistantText(messages)).toBe('The export now writes UTF-8.');
    expect(lastAssistantText([])).toBeNull();
  });

  it('reads only the end of a long file and drops the line the cut falls in', async () => {
    const file = path.join(dir, 'long.jsonl');
    const filler = Array.from({ length: 2000 }, (_, i) => assistant(`old_${i}`, { type: 'text', text: `old ${i}` }));
    writeFileSync(file, `${[...filler, TRANSCRIPT].join('\n')}\n`);
    const messages = await readAssistantTail(file, { bytes: 4096 });
    expect(messages.length).toBeLessThan(60);
    expect(messages.at(-1)?.text).toBe('The export now writes UTF-8.');
    expect(messages.every((message) => message.id !== null)).toBe(true);
  });

  it('knows nothing, without failing, about a missing file or lines of another shape', async () => {
    const warnings: string[] = [];
    expect(await readAssistantTail(path.join(dir, 'missing.jsonl'), { warn: (line) => warnings.push(line) })).toEqual([]);
    expect(warnings).toEqual([]);
    expect(groupMessages(['{"type":"assistant"', 'garbage', line({ type: 'assistant', message: { content: 5 } })])).toEqual([]);
  });

  it('says when a transcript exists but cannot be read, and still answers', async () => {
    const warnings: string[] = [];
    // A folder where the file should be: open succeeds on Linux but reading fails (EISDIR).
    expect(await readAssistantTail(dir, { warn: (line) => warnings.push(line) })).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^cannot read the transcript .*EISDIR.*counting the step without its text$/);
  });
});
