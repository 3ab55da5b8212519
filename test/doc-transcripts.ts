/**
 * Reading and replaying the transcripts the docs show: a ```console block of `$ command` lines,
 * each followed by what it prints. `# …` lines are the page's comments; a line of `…` stands
 * for any number of printed lines. Ids and times differ from run to run: each id the page shows
 * stands for the id printed in its place the first time it appears (and must stay that id),
 * and times and durations are masked.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { childEnv, CLI } from './cli/helpers.js';

/** One `$` line of a transcript and the lines the page shows under it. */
export interface TranscriptStep {
  command: string;
  expected: string[];
}

/** A line of `…`: any number of printed lines, none included. */
export const ANY_LINES = '…';

const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;
const MASKS: readonly [RegExp, string][] = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [/\b\d{2}:\d{2}:\d{2}\b/g, '<clock>'],
  [/\d+(\.\d+)? ms\b/g, '<ms>'],
];

/** The steps of the first ```console block under `heading` in the Markdown file `file`. */
export function readTranscript(file: string, heading: string): TranscriptStep[] {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${file} has no heading "${heading}"`);
  const block = /```console\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`${file}: no console block under "${heading}"`);
  const steps: TranscriptStep[] = [];
  for (const line of (block[1] ?? '').split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else if (line.startsWith('# ') || line === '#' || line === '') continue;
    else steps.at(-1)?.expected.push(line);
  }
  return steps;
}

/** Ids the page shows, bound to the ids a run printed in their place. */
export class IdBinding {
  private pageToRun = new Map<string, string>();

  /** The bindings now, to go back to when a match is abandoned. */
  save(): Map<string, string> {
    return new Map(this.pageToRun);
  }

  restore(saved: Map<string, string>): void {
    this.pageToRun = new Map(saved);
  }

  /** `command` with every id the page bound replaced by the run's. */
  command(command: string): string {
    return command.replace(ULID, (id) => this.pageToRun.get(id) ?? id);
  }

  /**
   * Whether `printed` is `expected` once ids and times are masked; ids the page shows for the
   * first time are bound to the ones printed in their places.
   */
  matches(expected: string, printed: string): boolean {
    const pageIds = expected.match(ULID) ?? [];
    const runIds = printed.match(ULID) ?? [];
    if (pageIds.length !== runIds.length) return false;
    const bound = new Map(this.pageToRun);
    for (const [i, pageId] of pageIds.entries()) {
      const runId = runIds[i] as string;
      const known = bound.get(pageId);
      if (known !== undefined && known !== runId) return false;
      if (known === undefined && [...bound.values()].includes(runId)) return false;
      bound.set(pageId, runId);
    }
    if (mask(expected.replace(ULID, '<id>')) !== mask(printed.replace(ULID, '<id>'))) return false;
    for (const [pageId, runId] of bound) this.pageToRun.set(pageId, runId);
    return true;
  }
}

function mask(line: string): string {
  return MASKS.reduce((masked, [pattern, replacement]) => masked.replace(pattern, replacement), line.trimEnd());
}

/**
 * Where `printed` departs from `expected` (`…` lines match any lines), or null when it does
 * not. Binds the ids it meets.
 */
export function compareOutput(expected: readonly string[], printed: readonly string[], ids: IdBinding): string | null {
  const match = (e: number, p: number): boolean => {
    if (e === expected.length) return p === printed.length;
    const line = expected[e] as string;
    const saved = ids.save();
    if (line === ANY_LINES) {
      for (let skip = p; skip <= printed.length; skip++) {
        if (match(e + 1, skip)) return true;
        ids.restore(saved);
      }
      return false;
    }
    if (p < printed.length && ids.matches(line, printed[p] as string) && match(e + 1, p + 1)) return true;
    ids.restore(saved);
    return false;
  };
  if (match(0, 0)) return null;
  return `the page shows:\n${expected.join('\n')}\n\nthe command printed:\n${printed.join('\n')}`;
}

/** What one command of a transcript did. */
export interface StepResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` with `sh` in `cwd`, with `engram` on the PATH as the built CLI (and nothing of
 * Engram's in the environment), as a reader of the page would in a fresh folder.
 */
export function runStep(command: string, cwd: string): StepResult {
  const bin = path.join(cwd, '.bin');
  mkdirSync(bin, { recursive: true });
  const shim = path.join(bin, 'engram');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
  const env = childEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
  const result = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
