/**
 * `bench ingest`: how fast memories go in, with the local embedder and without any, and how
 * much disk each memory costs. Fresh temporary databases, so the embedding cache starts empty.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';
import { syntheticMemories } from './synthetic-memories.js';

/** Memories per transaction during the bulk phase. */
const BATCH = 500;
/** Single `remember` calls timed after the bulk phase. */
const SINGLE_ADDS = 100;

interface ModeResult {
  memories: number;
  seconds: number;
  memoriesPerSecond: number;
  databaseBytes: number;
  bytesPerMemory: number;
  singleAddMs: { p50: number; p95: number };
}

export async function runIngestBenchmark(options: BenchOptions): Promise<BenchResult> {
  const inputs = syntheticMemories(options.count);
  const extra = syntheticMemories(options.count + SINGLE_ADDS).slice(options.count);
  const modes = {
    embedded: await measure('local', inputs, extra, options.log),
    lexicalOnly: await measure('none', inputs, extra, options.log),
  };
  const machine = machineInfo();
  const row = (name: string, result: ModeResult) => [
    name,
    String(result.memories),
    result.memoriesPerSecond.toFixed(0),
    result.seconds.toFixed(1),
    (result.bytesPerMemory / 1024).toFixed(2),
    result.singleAddMs.p50.toFixed(1),
    result.singleAddMs.p95.toFixed(1),
  ];
  const table = [
    `ingest: ${options.count} synthetic memories, batches of ${BATCH}; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    textTable(
      ['mode', 'memories', 'memories/s', 'seconds', 'KiB/memory', 'add p50 ms', 'add p95 ms'],
      [row('local embedder', modes.embedded), row('no embedder', modes.lexicalOnly)],
    ),
  ].join('\n');
  return { table, json: { benchmark: 'ingest', machine, count: options.count, batch: BATCH, modes } };
}

async function measure(
  provider: 'local' | 'none',
  inputs: ReturnType<typeof syntheticMemories>,
  extra: ReturnType<typeof syntheticMemories>,
  log: (line: string) => void,
): Promise<ModeResult> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-'));
  const file = path.join(directory, 'bench.db');
  try {
    const engram = await openEngram({ path: file, config: { embedding: { provider } } });
    await engram.search('warm up the model before timing'); // loads the model outside the timed part
    const started = performance.now();
    for (let start = 0; start < inputs.length; start += BATCH) {
      await engram.rememberMany(inputs.slice(start, start + BATCH));
      log(`${provider}: ${Math.min(start + BATCH, inputs.length)}/${inputs.length}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const latencies: number[] = [];
    for (const input of extra) {
      const at = performance.now();
      await engram.remember(input);
      latencies.push(performance.now() - at);
    }
    await engram.close();
    const databaseBytes = statSync(file).size;
    const memories = inputs.length + extra.length;
    return {
      memories: inputs.length,
      seconds,
      memoriesPerSecond: inputs.length / seconds,
      databaseBytes,
      bytesPerMemory: databaseBytes / memories,
      singleAddMs: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
