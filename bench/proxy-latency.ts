/**
 * `bench proxy`: the latency `engram proxy` adds to a chat completion, over the upstream's own
 * time, with the proxy warm. The proxy is a real `engram proxy` child process with the local
 * model on `--count` synthetic memories; the upstream (proxy-upstream.ts) and the client are this
 * process. Each conversation is a new user message (active recall) and five tool-only steps (the
 * reflection nudge with intrusive recall goes into the sixth), half of them streamed; the phases
 * (PHASES: the pause before each request, how long the upstream takes) take turns. Every
 * request is sent twice, straight to the upstream and through the proxy, in alternating order;
 * added = proxied − direct − the query embedding the proxy reports (its `Server-Timing`
 * `engram-embed`, from the recall receipt). Target: ≤ 10 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder } from './embedding-cache.js';
import { type ListeningChild, startListening } from './listening-child.js';
import { machineInfo } from './machine.js';
import { startBenchUpstream, TOOL_STEPS } from './proxy-upstream.js';
import { quantile, textTable } from './stats.js';
import { syntheticMemories, syntheticQueries } from './synthetic-memories.js';

const CONVERSATIONS = 60;
const WARMUP_CONVERSATIONS = 3;
const TARGET_MS = 10;
/**
 * The phases: the time between a step's answer and the next request (a tool running, or none),
 * and how long the upstream takes to answer — at once, which leaves nothing of the proxy's work
 * off the request's path, or 20 ms, as a fast model's first answer at the least, during which
 * the proxy writes the turn's receipt.
 */
const PHASES = [
  { pauseMs: 100, answerMs: 0 },
  { pauseMs: 0, answerMs: 0 },
  { pauseMs: 100, answerMs: 20 },
];
const TOOLS = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: {} } } }];

interface Sample {
  step: number;
  stream: boolean;
  /** Whether the proxied request went first, after the pause. */
  proxiedFirst: boolean;
  directMs: number;
  proxiedMs: number;
  /** What the proxy spent before forwarding, and how much of it was the query's embedding. */
  engramMs: number;
  embedMs: number;
}

export async function runProxyBenchmark(options: BenchOptions): Promise<BenchResult> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-proxy-'));
  const upstream = await startBenchUpstream();
  try {
    const file = path.join(directory, 'engram.db');
    await buildDatabase(file, options.count, options.log);
    const proxy = await startProxy(file, upstream.url);
    try {
      const queries = syntheticQueries(WARMUP_CONVERSATIONS + CONVERSATIONS * PHASES.length);
      let next = 0;
      for (let c = 0; c < WARMUP_CONVERSATIONS; c++) {
        await converse(
          proxy.url,
          upstream.url,
          `warm-${c}`,
          queries[next++] as string,
          { stream: false, flip: false },
          PHASES[0] as Phase,
        );
      }
      // The phases take turns, conversation by conversation: each sees the proxy as warm as the
      // others (what it has kept grows as it serves), so no phase gains from coming later.
      const phases = PHASES.map((phase) => ({ ...phase, samples: [] as Sample[] }));
      for (let c = 0; c < CONVERSATIONS; c++) {
        // Half the conversations stream; in half of each half, every step's pair is sent in the other order.
        const order = { stream: c % 2 === 1, flip: Math.floor(c / 2) % 2 === 1 };
        for (const [index, phase] of phases.entries()) {
          const id = `phase-${index}-${c}`;
          phase.samples.push(...(await converse(proxy.url, upstream.url, id, queries[next++] as string, order, phase)));
        }
      }
      for (const phase of phases) options.log(`proxy: ${phase.samples.length} requests, ${phaseLabel(phase)}`);
      return report(phases, options.count);
    } finally {
      await proxy.stop();
    }
  } finally {
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function buildDatabase(file: string, count: number, log: (line: string) => void): Promise<void> {
  const { embedder, close } = openBenchEmbedder();
  const engram = await openEngram({ path: file, embedder, config: {} });
  try {
    const memories = syntheticMemories(count, count);
    for (let start = 0; start < count; start += 1000) {
      await engram.rememberMany(memories.slice(start, start + 1000));
      log(`proxy: ${Math.min(start + 1000, count)} of ${count} memories stored`);
    }
  } finally {
    await engram.close();
    await close();
  }
}

/**
 * One conversation: the user message, then tool steps until the answer; each request timed both
 * ways. The request sent first after a pause meets a client and an upstream that have been idle
 * (the proxy has been idle either way): which goes first alternates step by step, and `flip`
 * swaps it for the whole conversation, so every kind of step — the first, with recall, too — is
 * sent proxied first in half the conversations and direct first in the other half.
 */
async function converse(
  proxyUrl: string,
  upstreamUrl: string,
  session: string,
  question: string,
  { stream, flip }: { stream: boolean; flip: boolean },
  { pauseMs, answerMs }: Phase,
): Promise<Sample[]> {
  const messages: object[] = [
    { role: 'system', content: 'You are a careful engineer.' },
    { role: 'user', content: question },
  ];
  const samples: Sample[] = [];
  for (let step = 1; step <= TOOL_STEPS + 1; step++) {
    // Before every request, the first too: whatever ran before it, the proxy has been idle this long.
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const body = JSON.stringify({ model: 'bench', messages, tools: TOOLS, stream });
    const answer = { 'x-bench-answer-ms': String(answerMs) };
    const direct = () => timed(`${upstreamUrl}/chat/completions`, body, answer);
    const proxied = () => timed(`${proxyUrl}/chat/completions`, body, { ...answer, 'x-engram-session': session });
    // Alternating which goes first keeps a warm-cache advantage from favouring either.
    const directFirst = (step % 2 === 0) !== flip;
    const [first, second] = directFirst ? [await direct(), await proxied()] : [await proxied(), await direct()];
    const [d, p] = directFirst ? [first, second] : [second, first];
    const timing = p.serverTiming;
    samples.push({
      step,
      stream,
      proxiedFirst: !directFirst,
      directMs: d.ms,
      proxiedMs: p.ms,
      engramMs: durationOf(timing, 'engram'),
      embedMs: durationOf(timing, 'engram-embed'),
    });
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `call_${step}`, type: 'function', function: { name: 'read_file', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: `call_${step}`, content: 'file contents' },
    );
  }
  return samples;
}

async function timed(url: string, body: string, headers: Record<string, string>): Promise<{ ms: number; serverTiming: string }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key', ...headers },
    body,
  });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return { ms, serverTiming: response.headers.get('server-timing') ?? '' };
}

function durationOf(serverTiming: string, name: string): number {
  const match = new RegExp(`(?:^|,\\s*)${name};dur=([\\d.]+)`).exec(serverTiming);
  if (!match) throw new Error(`the proxy sent no ${name} timing (Server-Timing: "${serverTiming}")`);
  return Number(match[1]);
}

type Phase = (typeof PHASES)[number];

function phaseLabel({ pauseMs, answerMs }: Phase): string {
  return `${pauseMs} ms between steps, upstream answers ${answerMs === 0 ? 'at once' : `in ${answerMs} ms`}`;
}

function report(phases: (Phase & { samples: Sample[] })[], count: number): BenchResult {
  const machine = machineInfo();
  const added = (s: Sample) => s.proxiedMs - s.directMs - s.embedMs;
  const row = (label: string, samples: Sample[]) => {
    const p = (values: number[], q: number) => quantile(values, q).toFixed(1);
    const addedMs = samples.map(added);
    return {
      label,
      requests: samples.length,
      directP50: p(
        samples.map((s) => s.directMs),
        0.5,
      ),
      proxiedP50: p(
        samples.map((s) => s.proxiedMs),
        0.5,
      ),
      embedP50: p(
        samples.map((s) => s.embedMs),
        0.5,
      ),
      addedP50: Number(p(addedMs, 0.5)),
      addedP95: Number(p(addedMs, 0.95)),
      recallP50: p(
        samples.map((s) => s.engramMs - s.embedMs),
        0.5,
      ),
      recallP95: p(
        samples.map((s) => s.engramMs - s.embedMs),
        0.95,
      ),
      relayP50: p(
        samples.map((s) => s.proxiedMs - s.directMs - s.engramMs),
        0.5,
      ),
      relayP95: p(
        samples.map((s) => s.proxiedMs - s.directMs - s.engramMs),
        0.95,
      ),
    };
  };
  const rows = phases.flatMap(({ samples, ...phase }) => [
    row(`${phaseLabel(phase)}: all`, samples),
    row(
      `  recall steps (new user message)`,
      samples.filter((s) => s.step === 1),
    ),
    row(
      `  tool steps (no recall)`,
      samples.filter((s) => s.step > 1 && s.step <= TOOL_STEPS),
    ),
    row(
      `  nudge steps (after ${TOOL_STEPS} tool-only)`,
      samples.filter((s) => s.step === TOOL_STEPS + 1),
    ),
    row(
      `  streamed`,
      samples.filter((s) => s.stream),
    ),
  ]);
  const headline = rows[0] as ReturnType<typeof row>;
  const recallSteps = rows.filter((r) => r.label.includes('recall steps'));
  const table = [
    `proxy: latency engram proxy adds per chat completion, warm; ${count} synthetic memories, local model; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    'added = proxied − direct − query embedding (the proxy’s Server-Timing engram-embed, from the recall receipt);',
    'of it, recall = the session’s work before forwarding (Server-Timing engram − embed), relay = the rest (the extra hop, parsing, forwarding)',
    textTable(
      ['requests', 'n', 'direct p50', 'proxied p50', 'embed p50', 'added p50', 'added p95', 'recall p50/p95', 'relay p50/p95'],
      rows.map((r) => [
        r.label,
        String(r.requests),
        r.directP50,
        r.proxiedP50,
        r.embedP50,
        r.addedP50.toFixed(1),
        r.addedP95.toFixed(1),
        `${r.recallP50} / ${r.recallP95}`,
        `${r.relayP50} / ${r.relayP95}`,
      ]),
    ),
    `target: added ≤ ${TARGET_MS} ms — all requests (first phase) p50 ${headline.addedP50.toFixed(1)} / p95 ${headline.addedP95.toFixed(1)} ms; ` +
      `recall steps p50 ${recallSteps.map((r) => r.addedP50.toFixed(1)).join(' / ')} ms by phase ` +
      `(${recallSteps.every((r) => r.addedP50 <= TARGET_MS) ? 'met' : 'NOT met'} in every phase)`,
  ].join('\n');
  return {
    table,
    json: { benchmark: 'proxy', machine, memories: count, targetMs: TARGET_MS, rows, phases },
  };
}

/** Starts `engram proxy` on `file` and waits until it listens. */
function startProxy(file: string, upstream: string): Promise<ListeningChild> {
  return startListening(['proxy', '--upstream', upstream, '--db', file], {}, (where) => where.url as string);
}
