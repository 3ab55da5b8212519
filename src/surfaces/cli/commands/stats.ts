/** `engram stats`: what the database holds. */
import type { Command } from 'commander';

import type { EngramStats } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { bytes, counts, table } from '../format.js';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('counts by kind, tier and scope; index and size')
    .addHelpText('after', '\nExamples:\n  engram stats\n  engram stats --db other.db --json')
    .action(async (_options: unknown, command: Command) => {
      const stats = await withEngram(command, { mustExist: true }, (engram) => engram.stats());
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
        ['embedder', `${stats.embedder}; vectors indexed with ${index}`],
        ['vectors', `${stats.vectors} indexed, ${stats.cachedEmbeddings} cached embeddings`],
        ['by kind', counts(stats.byKind)],
        ['by tier', counts(stats.byTier)],
        ['by scope', counts(stats.byScope)],
        [
          'graph',
          `${stats.graph.entities} entities, ${stats.graph.relations} relations (${stats.graph.invalidatedRelations} ended), ${stats.graph.mentions} mentions`,
        ],
        ['calibration', calibrationLine(stats.calibration)],
      ];
      process.stdout.write(`${table(rows)}\n`);
    });
}

/** "store-calibrated: 256 of 629 memories sampled, …" or why the fixed curve alone applies. */
function calibrationLine(c: EngramStats['calibration']): string {
  const curve = `fixed curve ${c.curve.map(([raw, relevance]) => `${raw}→${relevance}`).join(' ')}`;
  if (!c.active) return `${curve} (no embedder: the store's own correction needs vectors)`;
  const shift = `relevance − ${c.alpha} × (p${c.percentile * 100} of the query over the sample − ${c.reference})`;
  const sampled = `sample of the ${c.sampled} newest memories (at most ${c.sampleSize})`;
  if (c.weight === 0) return `young store (${sampled}; the correction starts at ${c.youngStore.from}): ${curve}`;
  const weight = c.young ? `young store, weight ${c.weight.toFixed(2)} (full at ${c.youngStore.full})` : 'weight 1';
  return `${curve}, then ${shift}; ${sampled}, ${weight}`;
}
