/** `engram stats`: what the database holds. */
import type { Command } from 'commander';

import type { EngramStats } from '../../../entries/model.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { bytes, counts, table } from '../format.js';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('counts by kind, tier and scope; index and size')
    .option('--internal', "count Engram's internal records (working sets, handoff notes, scratchpads) with the memories")
    .addHelpText('after', '\nExamples:\n  engram stats\n  engram stats --internal\n  engram stats --db other.db --json')
    .action(async (options: { internal?: boolean }, command: Command) => {
      const stats = await withEngram(command, { mustExist: true }, (engram) =>
        engram.stats({ internal: options.internal ?? false }),
      );
      if (globalOptions(command).json) {
        printJson(stats);
        return;
      }
      const index = stats.index
        ? `${stats.index.model}${stats.index.dimensions ? ` (${stats.index.dimensions} dims)` : ''}`
        : 'none yet';
      const rows: [string, string][] = [
        [
          'database',
          `${stats.path ?? '(custom store)'}${stats.sizeBytes === null ? '' : `, ${bytes(stats.sizeBytes)}`}, schema ${stats.schemaVersion}`,
        ],
        ['memories', `${stats.live} live, ${stats.archived} archived, ${stats.superseded} superseded (${stats.memories} in all)`],
        ['internal', internalLine(stats.internal)],
        [
          'embedder',
          `${stats.embedder}${stats.embedderLanguages ? ` (reads ${stats.embedderLanguages.reads})` : ''}; vectors indexed with ${index}`,
        ],
        ...(stats.embedderLanguages ? [['languages', stats.embedderLanguages.otherLanguages] as [string, string]] : []),
        // A stored memory's vector is the embedding cache's answer for its text; the cache's own
        // table holds only texts no memory holds (docs/decisions/bytes-per-memory.md).
        [
          'vectors',
          `${stats.vectors} indexed, which the embedding cache reads first; ${stats.cachedEmbeddings} other ${stats.cachedEmbeddings === 1 ? 'text' : 'texts'} cached`,
        ],
        ['by kind', counts(stats.byKind)],
        ['by tier', counts(stats.byTier)],
        ['by scope', counts(stats.byScope)],
        [
          'graph',
          `${stats.graph.entities} entities, ${stats.graph.relations} relations (${stats.graph.invalidatedRelations} ended), ${stats.graph.mentions} mentions; ${failedLine(stats.graph.extractionFailures)}`,
        ],
        ['calibration', calibrationLine(stats.calibration)],
      ];
      process.stdout.write(`${table(rows)}\n`);
    });
}

/** The memories whose graph extraction failed: stored and searchable, missing from the graph until `reindex` succeeds. */
function failedLine(failures: number): string {
  if (failures === 0) return 'no failed extraction';
  const memories = failures === 1 ? '1 memory' : `${failures} memories`;
  return `extraction failed for ${memories} (stored all the same; engram reindex tries again)`;
}

/** Engram's own records: how many, and whether the counts include them. */
function internalLine(internal: EngramStats['internal']): string {
  const records = `${internal.live} live internal ${internal.live === 1 ? 'record' : 'records'} (working sets, handoff notes, scratchpads)`;
  return internal.counted ? `${records}, in the counts` : `${records}, left out of the counts: --internal counts them`;
}

/** How relevance is calibrated here: the fixed curve, and the store's own correction when it applies. */
function calibrationLine(c: EngramStats['calibration']): string {
  const curve = `fixed curve ${c.curve.map(([raw, relevance]) => `${raw}→${relevance}`).join(' ')}`;
  if (!c.active) return `${curve} (no embedder: the store's own correction needs vectors)`;
  if (c.weight === 0)
    return `young store (${c.sampled} ${c.sampled === 1 ? 'memory' : 'memories'}): the ${curve} alone until ${c.youngStore.from}`;
  const weight = c.young ? ` × ${c.weight.toFixed(2)} (young store: full at ${c.youngStore.full})` : '';
  const shift = `shift = ${c.alpha} × (p${c.percentile * 100} of the query over the sample − ${c.reference})${weight}`;
  return `${curve}, then × ${c.pivot} / (${c.pivot} + shift), ${shift}; sample: ${c.sampled} memories spread over the store`;
}
