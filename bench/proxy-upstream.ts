/**
 * The upstream of `bench proxy`: a Chat Completions server on loopback that answers
 * deterministically from the request (a tool call until the conversation holds five tool
 * results, then a text answer), whole or streamed, so direct and proxied requests get the same.
 * It answers at once, or after the milliseconds a request's `x-bench-answer-ms` header asks for
 * (the proxy forwards the header), as a model takes time to answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Tool-only steps before the answer: `[memory.intrusive] every_tool_turns`'s default. */
export const TOOL_STEPS = 5;

export async function startBenchUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delayMs = Number(req.headers['x-bench-answer-ms'] ?? 0);
      // A timer of 0 still waits for the next turn of the loop: "at once" answers in this one.
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
    const answer = () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean; messages: { role: string }[] };
      const toolResults = body.messages.filter((message) => message.role === 'tool').length;
      const call =
        toolResults < TOOL_STEPS
          ? [
              {
                index: 0,
                id: `call_${toolResults + 1}`,
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
              },
            ]
          : undefined;
      const content = call ? 'Reading the next file.' : 'Here is what I found in the files.';
      const base = { id: 'chatcmpl-bench', created: 1_770_000_000, model: 'bench' };
      if (!body.stream) {
        const message = { role: 'assistant', content, ...(call ? { tool_calls: call.map(({ index: _, ...c }) => c) } : {}) };
        const choice = { index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ...base, object: 'chat.completion', choices: [choice] }));
        return;
      }
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of content.split(/(?<= )/)) res.write(chunk({ content: word }, null));
      if (call) res.write(chunk({ tool_calls: call }, null));
      res.end(`${chunk({}, call ? 'tool_calls' : 'stop')}data: [DONE]\n\n`);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
