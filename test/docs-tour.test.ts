/**
 * The README's tour and docs/getting-started.md, run as written: every `$` line of their
 * transcripts runs in order in a fresh folder, with the real local model, and what it prints
 * must be what the page shows (ids and times masked; see doc-transcripts.ts). A tour that
 * recalls nothing, or a search that prints numbers out of order, fails.
 */
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { makeTempDir } from './cli/helpers.js';
import { ANY_LINES, compareOutput, IdBinding, readTranscript, runStep, type TranscriptStep } from './doc-transcripts.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOURS: readonly [file: string, heading: string][] = [
  ['README.md', '## A five-minute tour'],
  ['docs/getting-started.md', '## The CLI in five minutes'],
];

/** Runs every step and returns what each printed; fails at the first step the page does not show. */
function replay(steps: readonly TranscriptStep[], label: string): string[] {
  const { dir, remove } = makeTempDir();
  const ids = new IdBinding();
  const printed: string[] = [];
  try {
    for (const step of steps) {
      const command = ids.command(step.command);
      const result = runStep(command, dir);
      const where = `${label}: $ ${step.command}`;
      expect(result.stderr, where).toBe('');
      expect(result.status, where).toBe(0);
      const lines = result.stdout
        .replace(/\n$/, '')
        .split('\n')
        .filter((line, i, all) => all.length > 1 || line !== '');
      expect(compareOutput(step.expected, lines, ids), where).toBeNull();
      printed.push(result.stdout);
    }
  } finally {
    remove();
  }
  return printed;
}

/** The scores a search printed (` 1. 0.77  01M…`), in order. */
function scoresIn(output: string): number[] {
  return [...output.matchAll(/^ *\d+\. (\d+\.\d\d) /gm)].map((match) => Number(match[1]));
}

describe('the tours the docs show', () => {
  it('catches a page that does not show what the command prints', () => {
    const ids = new IdBinding();
    expect(
      compareOutput(['remembered 01M80C4B9TZSV7JEKZBR8ASX84  fact'], ['remembered 01M8DV6MB84MKQSS7KKY25BM7M  fact'], ids),
    ).toBeNull();
    // The page's id now stands for that run's id, and only for it.
    expect(compareOutput(['x 01M80C4B9TZSV7JEKZBR8ASX84'], ['x 01M8DV6Y0VD9DCCQ3GN2RTP3NF'], ids)).not.toBeNull();
    expect(compareOutput([' 1. 0.77  a'], [' 1. 0.70  a'], ids)).not.toBeNull();
    expect(compareOutput(['a', ANY_LINES, 'z'], ['a', 'b', 'c', 'z'], ids)).toBeNull();
    expect(compareOutput(['a', ANY_LINES, 'z'], ['a', 'b'], ids)).not.toBeNull();
    expect(
      compareOutput(['at 2026-01-31T09:00:00.000Z took 12.5 ms'], ['at 2027-02-01T10:11:12.131Z took 3 ms'], ids),
    ).toBeNull();
  });

  it.each(TOURS)('%s (%s) prints what the page shows', (file, heading) => {
    const steps = readTranscript(path.join(ROOT, file), heading);
    expect(steps.length).toBeGreaterThan(3);
    const printed = replay(steps, file);
    steps.forEach((step, i) => {
      const output = printed[i] ?? '';
      const scores = scoresIn(output);
      if (/^engram search /.test(step.command)) {
        expect(scores.length, `${step.command} found nothing`).toBeGreaterThan(0);
        expect(scores, `${step.command} printed its scores out of order`).toEqual([...scores].sort((a, b) => b - a));
      }
      if (/^engram recall /.test(step.command)) {
        expect(output, `${step.command} recalled nothing`).toMatch(/<engram-memories>[\s\S]*- [\s\S]*<\/engram-memories>/);
      }
    });
  });
});
