/**
 * `engram import`: load memories and knowledge-graph lines — `engram export`'s JSON Lines,
 * hand-written records, a JSON array of either, the MCP reference memory server's
 * `memory.jsonl` — all or nothing, and say what was read.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { Command } from 'commander';

import type { ImportSummary } from '../../../entries/model.js';
import { EngramError } from '../../../index.js';
import { globalOptions, printJson, readStdin, withEngram } from '../context.js';
import { readImportFile } from '../import-file.js';
import { progressBar } from '../progress.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description(
      'import memories (engram export lines, or records with just "text"), as JSON Lines or a JSON array, ' +
        'and the MCP reference memory server’s memory.jsonl into the knowledge graph; all or nothing',
    )
    .argument('[file]', 'input file; standard input when omitted or -')
    .option('--replace', 'overwrite memories whose id is already stored (default: skip them)')
    .option('--progress', 'report progress on standard error even when it is not a terminal')
    .addHelpText(
      'after',
      `
Examples:
  engram import backup.jsonl
  engram export --db old.db | engram import --db new.db
  engram import notes.json                      # [{"text": "Deploys happen on Tuesdays", "kind": "fact"}, …]
  engram import ~/.mcp/memory.jsonl             # the MCP reference memory server's knowledge graph`,
    )
    .action(async (file: string | undefined, options: { replace?: boolean; progress?: boolean }, command: Command) => {
      const stdin = !file || file === '-';
      const { records, positions } = readImportFile(stdin ? await readStdin() : await readInput(file));
      const from = stdin ? 'standard input' : path.basename(file);
      const summary = await withEngram(command, { mustExist: false }, (engram) =>
        engram.import(records, {
          positions,
          from,
          onConflict: options.replace ? 'replace' : 'skip',
          onProgress: progressBar({ enabled: options.progress }),
        }),
      );
      if (globalOptions(command).json) printJson(summary);
      else process.stdout.write(`${describeImport(summary, from)}\n`);
    });
}

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new EngramError('import_failed', `cannot read ${file}: ${(cause as Error).message}`, { cause });
  }
}

/** `read 12 memories, 3 entities, 2 relations from x.jsonl: imported 12 memories; added 3 entities and 2 relations to the knowledge graph`. */
export function describeImport(summary: ImportSummary, from: string): string {
  const { entities, relations, newEntities, newRelations } = summary.graph;
  const read = [
    ...(summary.read > 0 ? [count(summary.read, 'memory', 'memories')] : []),
    ...(entities > 0 ? [count(entities, 'entity', 'entities')] : []),
    ...(relations > 0 ? [count(relations, 'relation', 'relations')] : []),
  ];
  if (read.length === 0) return `nothing to import: ${from} holds no records`;
  const done: string[] = [];
  if (summary.read > 0) {
    const replaced = summary.replaced > 0 ? `, replaced ${summary.replaced}` : '';
    const skipped = summary.skipped > 0 ? `, skipped ${summary.skipped} already present` : '';
    done.push(`imported ${share(summary.imported, summary.read, 'memory', 'memories')}${replaced}${skipped}`);
  }
  if (entities + relations > 0) {
    const old = newEntities < entities || newRelations < relations ? ' (the rest were there already)' : '';
    done.push(
      `added ${share(newEntities, entities, 'entity', 'entities')} and ${share(newRelations, relations, 'relation', 'relations')} to the knowledge graph${old}`,
    );
  }
  return `read ${read.join(', ')} from ${from}: ${done.join('; ')}`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `3 memories` when all of them, else `2 of 3 memories`. */
function share(part: number, whole: number, one: string, many: string): string {
  return part === whole ? count(whole, one, many) : `${part} of ${count(whole, one, many)}`;
}
