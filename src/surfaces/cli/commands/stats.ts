/** `engram stats`: what the database holds. */
import type { Command } from 'commander';

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
      ];
      process.stdout.write(`${table(rows)}\n`);
    });
}
