/**
 * The `engram graph` subcommands that change the graph: `add` (graph-add-command.ts),
 * `relate`, `observe` (the create tools) and `unrelate`, `unobserve`, `delete` (the delete
 * tools). Deleting what is not there is not an error, as with the tools.
 */
import type { Command } from 'commander';

import { given } from '../given.js';
import { registerGraphAdd } from './graph-add-command.js';
import { count, deletedLine, relationLine } from './graph-format.js';
import { runGraphTool } from './graph-run.js';

/** `add` (graph-add-command.ts), `relate`, `observe`. */
export function registerGraphWrites(graph: Command): void {
  registerGraphAdd(graph);
  graph
    .command('relate')
    .description('relate two existing entities (create_relations), e.g. Alice works_at Acme')
    .argument('<from>', 'the entity the relation starts from')
    .argument('<relation>', 'the relation, in active voice, e.g. works_at')
    .argument('<to>', 'the entity it points to')
    .action(async (from: string, relationType: string, to: string, _options: unknown, command: Command) => {
      const relation = { from, relationType: given(relationType, 'the relation', 'works_at'), to };
      await runGraphTool<{ relations: unknown[] }>(command, 'create_relations', { relations: [relation] }, (result) =>
        result.relations.length > 0 ? `related ${relationLine(relation)}` : `${relationLine(relation)} is already in the graph`,
      );
    });
  graph
    .command('observe')
    .description('add observations (facts) to an existing entity (add_observations)')
    .argument('<name>', 'the entity')
    .argument('<observations...>', 'the facts, one argument each (quote each sentence)')
    .action(async (entityName: string, contents: string[], _options: unknown, command: Command) => {
      await runGraphTool<{ results: { entityName: string; addedObservations: string[] }[] }>(
        command,
        'add_observations',
        { observations: [{ entityName, contents }] },
        (result) => {
          const [first] = result.results;
          const added = first?.addedObservations.length ?? 0;
          return added > 0
            ? `added ${count(added, 'observation', 'observations')} to ${first?.entityName}`
            : `${first?.entityName} already has ${contents.length === 1 ? 'this observation' : 'these observations'}`;
        },
      );
    });
}

/** `unrelate`, `unobserve`, `delete`. */
export function registerGraphDeletes(graph: Command): void {
  graph
    .command('unrelate')
    .description('delete a relation (delete_relations); one that is not there is ignored')
    .argument('<from>', 'the entity the relation starts from')
    .argument('<relation>', 'the relation, e.g. works_at')
    .argument('<to>', 'the entity it points to')
    .action(async (from: string, relationType: string, to: string, _options: unknown, command: Command) => {
      const relation = { from, relationType, to };
      await runGraphTool<{ removed: number }>(command, 'delete_relations', { relations: [relation] }, (result) =>
        result.removed > 0
          ? `removed ${relationLine(relation)}`
          : `${relationLine(relation)} is not in the graph: nothing removed`,
      );
    });
  graph
    .command('unobserve')
    .description('remove observations from an entity, as stored (delete_observations)')
    .argument('<name>', 'the entity')
    .argument('<observations...>', 'the facts to remove, one argument each')
    .action(async (entityName: string, observations: string[], _options: unknown, command: Command) => {
      await runGraphTool<{ removed: number }>(
        command,
        'delete_observations',
        { deletions: [{ entityName, observations }] },
        (result) =>
          result.removed > 0
            ? `removed ${count(result.removed, 'observation', 'observations')} from ${entityName}`
            : `${entityName} has no such observation (they must match as stored: engram graph show ${entityName}): nothing removed`,
      );
    });
  graph
    .command('delete')
    .description('delete entities with their relations (delete_entities); memories are kept')
    .argument('<names...>', 'the entities')
    .action(async (entityNames: string[], _options: unknown, command: Command) => {
      await runGraphTool<{ deleted: string[]; notFound: string[] }>(command, 'delete_entities', { entityNames }, (result) =>
        deletedLine(result.deleted, result.notFound),
      );
    });
}
