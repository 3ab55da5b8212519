/**
 * The proxy's Server-Timing header counts every query embedding a request waited for: its own
 * active recall's, and the intrusive recall of the step before it when the client asks again
 * before that recall is done (the nudge it carries is ready only then). A slow model (the real
 * local model, held back a fixed time per query) makes the waits plain to see; a request that
 * comes after the recall finished waited for no embedding.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Embedder } from '../../src/embedding/embedder.js';
import { type Engram, openEngram } from '../../src/index.js';
import { type RunningRecallProxy, startRecallProxy } from '../../src/surfaces/proxy/index.js';
import { freshDatabase, sharedEmbedder } from '../activation-helpers.js';
import { type ScriptedUpstream, startScriptedUpstream, toolCall } from './scripted-upstream.js';

/** How long the model is held back on each query (a single text; stored memories come in a batch). */
const QUERY_DELAY_MS = 300;

const slowQueries: Embedder = {
  id: sharedEmbedder.id,
  dimensions: sharedEmbedder.dimensions,
  async embed(texts) {
    if (texts.length === 1) await new Promise((resolve) => setTimeout(resolve, QUERY_DELAY_MS));
    return sharedEmbedder.embed(texts);
  },
};

let upstream: ScriptedUpstream;
let proxy: RunningRecallProxy;
let engram: Engram;

beforeAll(async () => {
  engram = await openEngram({
    path: freshDatabase(),
    embedder: slowQueries,
    config: { memory: { intrusive: { every_tool_turns: 1 } } },
  });
  await engram.rememberMany([
    { text: 'The merge loop can stall when specificity is too strict; 0.4 works.' },
    { text: 'Release builds run on the ci-large runners.' },
  ]);
  upstream = await startScriptedUpstream();
  proxy = await startRecallProxy({ engram, upstream: upstream.url, port: 0, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
  await engram.close();
});

/** The header's two durations, in milliseconds. */
function timingOf(header: string | null): { engram: number; embed: number } {
  const match = /^engram;dur=([\d.]+), engram-embed;dur=([\d.]+)$/.exec(header ?? '');
  if (!match) throw new Error(`unexpected Server-Timing: ${header}`);
  return { engram: Number(match[1]), embed: Number(match[2]) };
}

describe('the proxy’s Server-Timing', () => {
  it('counts the intrusive recall a request waited for as embedding, and none once it is done', async () => {
    upstream.script([
      { kind: 'message', content: 'Reading the config.', toolCalls: [toolCall('read_file', { path: 'merge.yaml' })] },
      { kind: 'message', content: 'Reading the defaults.', toolCalls: [toolCall('read_file', { path: 'defaults.yaml' })] },
      { kind: 'message', content: 'Lower merge.specificity to 0.4.' },
    ]);
    const openai = new OpenAI({ baseURL: proxy.url, apiKey: 'sk-test', maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'The merge loop stalls. Why?' }];
    const timings: { engram: number; embed: number }[] = [];
    const ask = async () => {
      const { data, response } = await openai.chat.completions.create({ model: 'm', messages, user: 'timed' }).withResponse();
      timings.push(timingOf(response.headers.get('server-timing')));
      const reply = data.choices[0]?.message;
      if (!reply) throw new Error('no reply');
      messages.push(reply);
      for (const call of reply.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: 'read' });
    };

    await ask(); // active recall; its answer is a tool call, so intrusive recall starts at once
    await ask(); // asked straight away: waits for that recall, and carries its nudge
    // Long enough for the second step's intrusive recall to finish before the third request.
    await new Promise((resolve) => setTimeout(resolve, QUERY_DELAY_MS * 3));
    await ask();

    const [first, second, third] = timings as [(typeof timings)[0], (typeof timings)[0], (typeof timings)[0]];
    expect(first.embed).toBeGreaterThanOrEqual(QUERY_DELAY_MS);
    // The second request waited for the intrusive recall's embedding, less what ran before it arrived.
    expect(second.embed).toBeGreaterThan(QUERY_DELAY_MS / 2);
    expect(second.engram).toBeGreaterThanOrEqual(second.embed);
    // The third came after its step's recall had finished: it waited for no embedding.
    expect(third.embed).toBe(0);
    expect(third.engram).toBeLessThan(QUERY_DELAY_MS / 2);
    expect(upstream.received).toHaveLength(3);
  });
});
