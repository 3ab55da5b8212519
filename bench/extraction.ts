/**
 * `bench extraction`: how well offline extraction finds what a memory names — people, places,
 * organisations, things, the speaker of a turn, dates resolved against `occurredAt` — on a
 * labelled sample written for Engram (default `test/fixtures/extraction-sample.json`, any file
 * of the same shape with `--data`), and what it costs per memory.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { InvalidInputError } from 'engram';
import { extractGraph, type LabelledMemory, scoreExtraction, type Tally } from 'engram/internal';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';

const DEFAULT_SAMPLE = path.join('test', 'fixtures', 'extraction-sample.json');
/** Passes over the sample for timing, after one warm-up pass (which loads the NLP library). */
const TIMED_PASSES = 5;

export async function runExtractionBenchmark(options: BenchOptions): Promise<BenchResult> {
  const file = options.data ?? DEFAULT_SAMPLE;
  const items = await readSample(file);
  const loadStarted = performance.now();
  const score = scoreExtraction(items, extractGraph);
  const firstPassMs = performance.now() - loadStarted;
  const perMemory: number[] = [];
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    for (const item of items) {
      const started = performance.now();
      extractGraph({ text: item.text, speaker: item.speaker, occurredAt: item.occurredAt });
      perMemory.push(performance.now() - started);
    }
  }
  const rows: [string, Tally][] = [
    ['names (any type)', score.names],
    ...Object.entries(score.byType),
    ['speaker', score.speaker],
    ['dates (resolved)', score.dates],
  ];
  const latency = { p50: quantile(perMemory, 0.5), p95: quantile(perMemory, 0.95), firstPassMs };
  const machine = machineInfo();
  const table = [
    `extraction on ${file}: ${items.length} labelled memories; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    textTable(
      ['what', 'precision', 'recall', 'found', 'wrong', 'missed'],
      rows.map(([label, t]) => [
        label,
        t.precision.toFixed(3),
        t.recall.toFixed(3),
        String(t.truePositives),
        String(t.falsePositives),
        String(t.falseNegatives),
      ]),
    ),
    `per memory: p50 ${latency.p50.toFixed(2)} ms, p95 ${latency.p95.toFixed(2)} ms (${TIMED_PASSES} passes; the first pass, loading the library, took ${firstPassMs.toFixed(0)} ms)`,
  ].join('\n');
  return { table, json: { file, memories: items.length, score, latencyMs: latency, machine } };
}

async function readSample(file: string): Promise<LabelledMemory[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new InvalidInputError(
      `bench extraction cannot read ${file} (${(cause as Error).message}): give a labelled sample with --data FILE`,
      { cause },
    );
  }
  const items = (parsed as { items?: unknown }).items;
  if (!Array.isArray(items) || items.length === 0) {
    throw new InvalidInputError(
      `${file} has no "items": a labelled sample is { "items": [{ "text", "occurredAt", "entities", "dates" }, …] }`,
    );
  }
  return items as LabelledMemory[];
}
