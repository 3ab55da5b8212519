/**
 * Hostile input, MCP over stdio: one `engram mcp` child takes `count` seeded messages — tool
 * calls with arguments shaped by each tool's own input schema and made hostile in places,
 * calls to unknown tools, prompts and resources with strange names, JSON-RPC that is wrong
 * (versions, ids, methods, params), notifications, batches and lines that are not JSON at all.
 * Every request with an id must be answered in time, with a result or an error carrying a
 * message; after a message that gets no answer (a notification, a broken line) a ping must
 * still be answered. A refused call must leave the database's data_version where it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { findLeak, watchDatabase } from './answer-checks.js';
import { emptyFigures, recordProblem, type SurfaceFigures } from './hostile-figures.js';
import { brokenBody, hostileId, hostileString, hostileValue } from './hostile-values.js';
import { childEnv, ChildFailure, describeExit, killHard, LEXICAL_ENV, type Running, startCli, stderrTail } from './processes.js';
import { type JsonSchema, valueForSchema } from './schema-values.js';
import { pickOne, type Random, seededRandom } from './seeded.js';
import { checkStoredAfter, seedDatabase, snapshotMemories } from './stored-snapshot.js';

const ANSWER_MS = 15_000;

interface Tool {
  name: string;
  inputSchema: JsonSchema;
}

interface RpcMessage {
  id?: unknown;
  result?: { isError?: boolean; content?: { type: string; text?: string }[] };
  error?: { code?: unknown; message?: unknown };
}

/** An `engram mcp` child and the messages it has answered, by id. */
class McpChild {
  readonly running: Running;
  private buffer = '';
  private readonly answers = new Map<number, RpcMessage>();
  private readonly waiting = new Map<number, () => void>();
  /** Output lines that were not JSON-RPC (a protocol violation on stdout). */
  readonly strayLines: string[] = [];

  constructor(file: string, env: NodeJS.ProcessEnv) {
    this.running = startCli(['mcp', '--db', file], env, { input: null });
    this.running.child.stdout?.on('data', (chunk: string) => this.read(chunk));
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      let message: RpcMessage;
      try {
        message = JSON.parse(line) as RpcMessage;
      } catch {
        this.strayLines.push(line);
        continue;
      }
      if (typeof message.id !== 'number') continue;
      this.answers.set(message.id, message);
      this.waiting.get(message.id)?.();
    }
  }

  get alive(): boolean {
    return this.running.child.exitCode === null && this.running.child.signalCode === null;
  }

  write(line: string): void {
    this.running.child.stdin?.write(`${line}\n`);
  }

  /** The answer to request `id`, or null when none came within the time limit (or the child died). */
  async answer(id: number): Promise<RpcMessage | null> {
    const found = this.answers.get(id);
    if (found) return found;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ANSWER_MS);
      this.waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      void this.running.done.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.waiting.delete(id);
    const answer = this.answers.get(id) ?? null;
    this.answers.delete(id);
    return answer;
  }
}

export async function fuzzMcpStdio({ count, seed }: { count: number; seed: number }): Promise<SurfaceFigures> {
  const figures = emptyFigures('mcp');
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-hostile-mcp-'));
  const file = path.join(directory, 'engram.db');
  const random = seededRandom(seed);
  const env = childEnv(LEXICAL_ENV);
  let nextId = 1;
  let mcp: McpChild | null = null;
  const start = async (): Promise<{ child: McpChild; tools: Tool[] }> => {
    const child = new McpChild(file, env);
    const id = nextId++;
    child.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: INITIALIZE }));
    if (!(await child.answer(id))) {
      const exited = !child.alive;
      const finished = await killHard(child.running);
      throw new ChildFailure(
        exited
          ? describeExit(child.running, finished)
          : `${child.running.name} did not answer initialize within ${ANSWER_MS / 1000} s: ${stderrTail(finished.stderr)}`,
      );
    }
    child.running.ready = true;
    child.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const listId = nextId++;
    child.write(JSON.stringify({ jsonrpc: '2.0', id: listId, method: 'tools/list' }));
    const listed = (await child.answer(listId)) as { result?: { tools?: Tool[] } } | null;
    return { child, tools: listed?.result?.tools ?? [] };
  };
  try {
    const seeded = await seedDatabase(file);
    const before = await snapshotMemories(file, seeded);
    const touched = new Set<string>();
    const started = await start();
    mcp = started.child;
    const tools = started.tools;
    if (tools.length === 0) throw new Error('engram mcp listed no tools');
    const watch = watchDatabase(file);
    try {
      for (let i = 0; i < count; i++) {
        const id = nextId++;
        const message = buildMessage(random, id, tools, seeded);
        const version = watch.version();
        mcp.write(message.line);
        figures.inputs++;
        // A message without a trackable id gets no answer: a ping proves the server still reads.
        const awaited = message.tracked ? id : nextId++;
        if (!message.tracked) mcp.write(JSON.stringify({ jsonrpc: '2.0', id: awaited, method: 'ping' }));
        const answer = await mcp.answer(awaited);
        const label = message.line.slice(0, 160);
        if (!answer) {
          if (!mcp.alive) {
            const finished = await mcp.running.done;
            recordProblem(figures, 'crashes', `${label}: engram mcp exited: ${finished.stderr.trim().slice(-300)}`);
            mcp = (await start()).child;
          } else recordProblem(figures, 'hangs', `${label}: no answer in ${ANSWER_MS} ms`);
          continue;
        }
        const leak = findLeak(JSON.stringify(answer), [directory]);
        if (leak) recordProblem(figures, 'leaks', `${label}: the answer holds ${leak}`);
        const refused = answer.error !== undefined || answer.result?.isError === true;
        if (!message.tracked) continue;
        if (!refused) {
          figures.accepted++;
          for (const seededId of seeded) if (message.line.includes(seededId)) touched.add(seededId);
          continue;
        }
        figures.refused++;
        if (watch.version() !== version) recordProblem(figures, 'refusedChanges', `${label} was refused`);
        checkRefusal(figures, answer, label);
      }
    } finally {
      watch.close();
    }
    for (const line of mcp.strayLines.slice(0, 5))
      recordProblem(figures, 'badErrors', `stdout line that is not JSON-RPC: ${line}`);
    mcp.running.child.stdin?.end();
    const finished = await mcp.running.done;
    mcp = null;
    if (finished.code !== 0)
      recordProblem(figures, 'crashes', `engram mcp exited ${finished.code ?? finished.signal} at the end`);
    const leak = findLeak(finished.stderr, [directory]);
    if (leak) recordProblem(figures, 'leaks', `stderr holds ${leak}: ${finished.stderr.slice(0, 300)}`);
    await checkStoredAfter(figures, file, before, touched);
    return figures;
  } finally {
    if (mcp) await killHard(mcp.running);
    rmSync(directory, { recursive: true, force: true });
  }
}

const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'engram-fuzzer', version: '1' } };

/** One line to send, and whether its answer can be told apart by `id`. */
function buildMessage(
  random: Random,
  id: number,
  tools: readonly Tool[],
  seeded: readonly string[],
): { line: string; tracked: boolean } {
  const roll = random();
  const request = (method: string, params: unknown) => ({
    line: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    tracked: true,
  });
  if (roll < 0.6) {
    const tool = random() < 0.92 ? pickOne(random, tools) : { name: hostileString(random), inputSchema: {} };
    const args = random() < 0.8 ? valueForSchema(tool.inputSchema, random, 0.2) : hostileValue(random, 3);
    if (random() < 0.1 && typeof args === 'object' && args !== null)
      (args as Record<string, unknown>).id = pickOne(random, seeded);
    return request('tools/call', random() < 0.95 ? { name: tool.name, arguments: args } : hostileValue(random, 2));
  }
  if (roll < 0.72) {
    return pickOne(random, [
      () => request('tools/list', random() < 0.5 ? {} : hostileValue(random, 1)),
      () => request('prompts/list', {}),
      () =>
        request('prompts/get', {
          name: random() < 0.5 ? 'session_start' : hostileString(random),
          arguments: hostileValue(random, 1),
        }),
      () => request('resources/list', {}),
      () => request('resources/templates/list', {}),
      () =>
        request('resources/read', {
          uri: pickOne(random, [
            'engram://session/start',
            'engram://session/context',
            `engram://receipts/${hostileId(random)}`,
            hostileString(random),
            'file:///etc/passwd',
          ]),
        }),
      () => request('ping', hostileValue(random, 1)),
      () => request('initialize', INITIALIZE),
      () => request(hostileString(random), hostileValue(random, 1)),
      () => request('completion/complete', hostileValue(random, 2)),
      () => request('logging/setLevel', { level: hostileString(random) }),
    ])();
  }
  if (roll < 0.84) {
    // Wrong JSON-RPC, answered (or not) by the protocol layer.
    return pickOne(random, [
      () => ({ line: JSON.stringify({ id, method: 'tools/list' }), tracked: false }),
      () => ({ line: JSON.stringify({ jsonrpc: '1.0', id, method: 'tools/list' }), tracked: false }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id, method: 42 }), tracked: false }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: 'not an object' }), tracked: true }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: [1, 2] }), tracked: true }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id: hostileValue(random, 1), method: 'tools/list' }), tracked: false }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id, result: hostileValue(random, 1) }), tracked: false }),
      () => ({ line: JSON.stringify({ jsonrpc: '2.0', id, error: { code: 1, message: 'x' } }), tracked: false }),
      () => ({ line: JSON.stringify([{ jsonrpc: '2.0', id, method: 'ping' }]), tracked: false }),
    ])();
  }
  if (roll < 0.92) {
    return {
      line: JSON.stringify({
        jsonrpc: '2.0',
        method: pickOne(random, [
          'notifications/cancelled',
          'notifications/initialized',
          'notifications/progress',
          hostileString(random),
        ]),
        params: random() < 0.5 ? { requestId: hostileValue(random, 0), reason: hostileString(random) } : hostileValue(random, 2),
      }),
      tracked: false,
    };
  }
  const body = brokenBody(random);
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('latin1');
  // A line break inside would split the garbage into several messages: still garbage, one line here.
  return { line: text.replace(/[\r\n]/g, ' '), tracked: false };
}

/** A refusal must be a JSON-RPC error with a message, or a tool result flagged isError with text. */
function checkRefusal(figures: SurfaceFigures, answer: RpcMessage, label: string): void {
  if (answer.error !== undefined) {
    const { code, message } = answer.error;
    if (typeof code !== 'number' || typeof message !== 'string' || message.trim() === '')
      recordProblem(figures, 'badErrors', `${label}: error without a code and message: ${JSON.stringify(answer.error)}`);
    else if (code === -32603) recordProblem(figures, 'serverErrors', `${label}: internal error: ${message}`);
    return;
  }
  const text = answer.result?.content?.find((part) => part.type === 'text')?.text ?? '';
  if (text.trim() === '') recordProblem(figures, 'badErrors', `${label}: isError result without a message`);
}
