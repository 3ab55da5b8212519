/**
 * `bench hook`: what one `engram hook claude-code` call costs Claude Code — the wall time from
 * spawning the process to its exit, event JSON on stdin — per event, on a database of
 * `--count` memories embedded by the local model (through the bench's embedding cache), twice:
 * answered by the warm resident process (the default) and done in the hook's own process
 * (`[daemon] enabled = false`); and the cold first call, which finds no resident process, does
 * the work itself and starts one. Next to it, where the in-process UserPromptSubmit's time goes:
 * Node's own start, loading Engram's modules, loading the embedding model, and the recall
 * itself (from the receipts the hook wrote).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder } from './embedding-cache.js';
import { machineInfo } from './machine.js';
import { engramEntryPoints } from './package-paths.js';
import { quantile, textTable } from './stats.js';
import { syntheticMemories, syntheticQueries } from './synthetic-memories.js';

/** Timed calls per event. */
const RUNS = 20;
const BATCH = 1_000;
/** The built CLI and the package's root entry (whose model load is timed alone). */
const { cli: CLI, index: INDEX } = engramEntryPoints();

/** Row names where the event name alone would not say which case was timed. */
const LABELS: Readonly<Record<string, string>> = {
  PostToolUse: 'PostToolUse (no nudge)',
  PostToolUseNudge: 'PostToolUse (nudge due)',
};

interface Timing {
  p50: number;
  p95: number;
  min: number;
  max: number;
}

const timing = (values: readonly number[]): Timing => ({
  p50: quantile(values, 0.5),
  p95: quantile(values, 0.95),
  min: Math.min(...values),
  max: Math.max(...values),
});

export async function runHookBenchmark(options: BenchOptions): Promise<BenchResult> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-hook-'));
  const file = path.join(directory, 'hook.db');
  try {
    await buildDatabase(file, options.count, options.log);
    const baselines = {
      node: timing(await repeat(async () => (await timeProcess([process.execPath, '-e', '0'], '')).ms)),
      engramVersion: timing(await repeat(async () => (await timeProcess([process.execPath, CLI, '--version'], '')).ms)),
      modelLoad: timing(await repeat(() => timeModelLoad(), 5)),
    };
    options.log('hook: baselines done');
    const inProcess = await timeEvents(new HookTimer(file, directory, { ENGRAM_DAEMON__ENABLED: 'false' }), 'in-process');
    options.log('hook: in-process events done');
    const resident = new HookTimer(file, directory, { XDG_RUNTIME_DIR: directory });
    const cold = await resident.call({ hook_event_name: 'UserPromptSubmit', prompt: 'which database for billing?' }, 'cold');
    await resident.waitForDaemon();
    const events = await timeEvents(resident, 'resident');
    await resident.stopDaemon();
    options.log('hook: resident-process events done');
    const recall = await receiptLatencies(file);
    return report(options.count, baselines, { resident: events, inProcess, cold }, recall);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Every event, RUNS times each; sessions are named after `mode` so the two runs do not share state. */
async function timeEvents(measure: HookTimer, mode: string): Promise<Record<string, Timing>> {
  return {
    SessionStart: timing(
      await repeat((i) => measure.call({ hook_event_name: 'SessionStart', source: 'startup' }, `${mode}-start-${i}`)),
    ),
    UserPromptSubmit: timing(await measure.prompts(syntheticQueries(RUNS), `${mode}-prompts`)),
    PostToolUse: timing(await repeat((i) => measure.call(measure.toolEvent(`${mode}-t-${i}`), `${mode}-tool-${i}`))),
    PostToolUseNudge: timing(await repeat((i) => measure.nudge(`${mode}-nudge-${i}`))),
    Stop: timing(
      await repeat((i) =>
        measure.call({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' }, `${mode}-stop-${i}`),
      ),
    ),
    SessionEnd: timing(await repeat((i) => measure.call({ hook_event_name: 'SessionEnd', reason: 'other' }, `${mode}-end-${i}`))),
  };
}

/** `count` synthetic memories embedded by the local model, and a handoff note. */
async function buildDatabase(file: string, count: number, log: (line: string) => void): Promise<void> {
  const cached = openBenchEmbedder();
  const engram = await openEngram({ path: file, embedder: cached.embedder, config: {} });
  try {
    const memories = syntheticMemories(count);
    for (let start = 0; start < count; start += BATCH) {
      await engram.rememberMany(memories.slice(start, start + BATCH));
      log(`hook: ${Math.min(start + BATCH, count)}/${count} memories`);
    }
    const handoff = engram
      .session({ id: 'bench-setup' })
      .tools()
      .find((tool) => tool.name === 'write_session_handoff');
    await handoff?.execute({ content: 'Billing export switched to UTF-8; next: rotate the staging keys.' });
  } finally {
    await engram.close();
    await cached.close();
  }
}

/** Spawns hook calls against one database and times each from spawn to exit. */
class HookTimer {
  constructor(
    private readonly file: string,
    private readonly directory: string,
    /** Settings for every call: the resident process on or off, and where its socket lives. */
    private readonly env: Readonly<Record<string, string>>,
  ) {}

  /** One hook call for session `session`; rejects when the hook fails. */
  async call(event: Record<string, unknown>, session: string): Promise<number> {
    const input = JSON.stringify({ session_id: session, cwd: this.directory, permission_mode: 'default', ...event });
    const { ms, code, stderr } = await timeProcess(
      [process.execPath, CLI, 'hook', 'claude-code', '--db', this.file],
      input,
      this.env,
    );
    if (code !== 0) throw new Error(`engram hook claude-code failed (${code}): ${stderr.trim()}`);
    return ms;
  }

  /** Waits until the resident process the first call started answers (it loads the model first). */
  async waitForDaemon(): Promise<void> {
    for (let waited = 0; waited < 60_000; waited += 250) {
      const { stdout } = await timeProcess(
        [process.execPath, CLI, 'daemon', 'status', '--db', this.file, '--json'],
        '',
        this.env,
      );
      if ((JSON.parse(stdout) as { residents: unknown[] }).residents.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the resident process did not start within a minute');
  }

  async stopDaemon(): Promise<void> {
    await timeProcess([process.execPath, CLI, 'daemon', 'stop', '--db', this.file], '', this.env);
  }

  toolEvent(toolUseId: string, transcript?: string): Record<string, unknown> {
    return {
      hook_event_name: 'PostToolUse',
      transcript_path: transcript ?? path.join(this.directory, 'no-transcript.jsonl'),
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false },
      tool_use_id: toolUseId,
    };
  }

  /** UserPromptSubmit in one session, one prompt per run. */
  async prompts(prompts: readonly string[], session: string): Promise<number[]> {
    const times: number[] = [];
    for (const prompt of prompts) times.push(await this.call({ hook_event_name: 'UserPromptSubmit', prompt }, session));
    return times;
  }

  /** The fifth tool-only step of a session, when the nudge runs intrusive recall on the transcript's text. */
  async nudge(session: string): Promise<number> {
    const transcript = path.join(this.directory, `${session}.jsonl`);
    const texts = syntheticQueries(5).map((query) => `Looking into this: ${query}`);
    writeFileSync(
      transcript,
      texts
        .map((text, i) =>
          JSON.stringify({
            type: 'assistant',
            message: {
              id: `msg_${i}`,
              content: [
                { type: 'text', text },
                { type: 'tool_use', id: `${session}-${i}`, name: 'Bash', input: {} },
              ],
            },
          }),
        )
        .join('\n'),
    );
    for (let i = 0; i < 4; i++) await this.call(this.toolEvent(`${session}-${i}`, transcript), session);
    return this.call(this.toolEvent(`${session}-4`, transcript), session);
  }
}

/** Runs `action` RUNS times (or `runs`), sequentially. */
async function repeat(action: (i: number) => Promise<number>, runs = RUNS): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await action(i));
  return times;
}

/** Wall time of a process, spawn to exit, with `input` on its stdin. */
function timeProcess(
  argv: readonly string[],
  input: string,
  extra: Readonly<Record<string, string>> = { ENGRAM_DAEMON__ENABLED: 'false' },
): Promise<{ ms: number; code: number | null; stderr: string; stdout: string }> {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ENGRAM_'))), ...extra };
  const started = performance.now();
  const child = spawn(argv[0] as string, argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, stderr, stdout }));
  });
}

/** In a fresh process: importing TF.js, loading the model and embedding one query, in ms. */
async function timeModelLoad(): Promise<number> {
  const script = [
    `const { createLocalEmbedder } = await import(${JSON.stringify(INDEX)});`,
    'const started = performance.now();',
    "await createLocalEmbedder().embed(['which database does billing use?']);",
    'process.stdout.write(String(performance.now() - started));',
  ].join('\n');
  const { stdout, code, stderr } = await timeProcess([process.execPath, '--input-type=module', '-e', script], '');
  if (code !== 0) throw new Error(`the model-load probe failed: ${stderr.trim()}`);
  return Number(stdout);
}

/** What the hook's own receipts say active recall took inside the process (embedding included). */
async function receiptLatencies(file: string): Promise<{ totalMs: Timing; embedMs: Timing }> {
  const engram = await openEngram({ path: file, embedder: null, config: {} });
  try {
    const receipts = await engram.receipts({ sessionId: 'in-process-prompts', limit: RUNS });
    return {
      totalMs: timing(receipts.map((receipt) => receipt.latencyMs.total)),
      embedMs: timing(receipts.map((receipt) => receipt.latencyMs.embed)),
    };
  } finally {
    await engram.close();
  }
}

function report(
  count: number,
  baselines: { node: Timing; engramVersion: Timing; modelLoad: Timing },
  events: { resident: Record<string, Timing>; inProcess: Record<string, Timing>; cold: number },
  recall: { totalMs: Timing; embedMs: Timing },
): BenchResult {
  const machine = machineInfo();
  const ms = (value: number) => value.toFixed(0);
  const pair = (value: Timing) => `${ms(value.p50)} / ${ms(value.p95)}`;
  const prompt = events.inProcess.UserPromptSubmit as Timing;
  const start = events.inProcess.SessionStart as Timing;
  const table = [
    `hook: engram hook claude-code, process start to exit, ${RUNS} runs per event, ${count} memories (local model); ` +
      `${machine.cores} cores (${machine.cpu}), node ${machine.node}, load average ${os.loadavg()[0]?.toFixed(2)}`,
    textTable(
      ['call', 'resident process p50 / p95 ms', 'in-process p50 / p95 ms'],
      [
        ...Object.keys(events.resident).map((name) => [
          LABELS[name] ?? name,
          pair(events.resident[name] as Timing),
          pair(events.inProcess[name] as Timing),
        ]),
        ['node -e 0', '', pair(baselines.node)],
        ['engram --version', '', pair(baselines.engramVersion)],
      ],
    ),
    '',
    `cold first call (no resident process yet: done in-process, one started for next time): UserPromptSubmit ${ms(events.cold)} ms`,
    `in-process UserPromptSubmit p50 ${ms(prompt.p50)} ms, roughly: node start ${ms(baselines.node.p50)} ms; ` +
      `Engram's modules ${ms(baselines.engramVersion.p50 - baselines.node.p50)} ms (engram --version - node);`,
    `  config, database and session ${ms(start.p50 - baselines.engramVersion.p50)} ms (SessionStart - --version); ` +
      `active recall ${ms(recall.totalMs.p50)} ms (its receipts), of which embedding the prompt ${ms(recall.embedMs.p50)} ms:`,
    `  a fresh process imports TF.js and loads the model first (${ms(baselines.modelLoad.p50)} ms to a first vector, ` +
      `p50 of 5 separate processes); the other events never load it.`,
  ].join('\n');
  return {
    table,
    json: {
      benchmark: 'hook',
      machine,
      count,
      runs: RUNS,
      events: events.resident,
      inProcess: events.inProcess,
      coldFirstCallMs: events.cold,
      baselines,
      activeRecallInHook: recall,
    },
  };
}
