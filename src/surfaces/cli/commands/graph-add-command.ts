/**
 * `engram graph add NAME [--type TYPE] [--observation TEXT…]`: creates an entity, or, when the
 * name is already in the graph (made by hand or by extraction), keeps it as it is and adds the
 * observations given — what the user wrote is never dropped. It runs the graph tools an agent
 * runs: `create_entities` (which, as in the MCP reference memory server, leaves an existing name
 * alone and makes an extracted entity the user's), then `add_observations` for an existing one.
 * `--json` prints both tools' answers: `{ entities, results }`.
 */
import type { Command } from 'commander';

import { createGraphTools, type GraphEntity, type GraphView } from '../../../entries/tools.js';
import { type Engram, InvalidInputError } from '../../../index.js';
import { globalOptions, printJson, withEngram } from '../context.js';
import { given } from '../given.js';
import { count } from './graph-format.js';
import { repeat } from './graph-run.js';

interface Added {
  /** What `create_entities` created: the entity, or nothing when the name was taken. */
  entities: GraphEntity[];
  /** What `add_observations` added to the existing entity (empty when it was created). */
  results: { entityName: string; addedObservations: string[] }[];
}

/** `add`. */
export function registerGraphAdd(graph: Command): void {
  graph
    .command('add')
    .description(
      'create an entity (create_entities); for a name already in the graph, add the observations given (add_observations)',
    )
    .argument('<name>', 'the entity’s name, its identity (quote a name with spaces)')
    .option('-t, --type <type>', 'what kind of thing it is, e.g. person, organization, project (needed to create one)')
    .option('-o, --observation <text>', 'a fact about it (repeat for more)', repeat)
    .action(async (rawName: string, options: { type?: string; observation?: string[] }, command: Command) => {
      const name = given(rawName, 'the entity name', 'engram graph add Alice --type person').trim();
      const type = options.type === undefined ? undefined : given(options.type, '--type', '--type person');
      const observations = options.observation ?? [];
      // Only creating may create the database; adding to an entity needs one that holds it.
      const added = await withEngram(command, { mustExist: type === undefined }, (engram) =>
        addEntity(engram, name, type, observations),
      );
      if (globalOptions(command).json) printJson(added);
      else process.stdout.write(`${describeAdded(name, type, observations, added)}\n`);
    });
}

async function addEntity(
  engram: Engram,
  name: string,
  type: string | undefined,
  observations: readonly string[],
): Promise<Added> {
  const tools = new Map(createGraphTools({ engram }).map((tool) => [tool.name, tool]));
  const run = async <T>(tool: string, args: Record<string, unknown>) => (await tools.get(tool)?.execute(args)) as T;
  if (type === undefined) {
    const { entities } = await run<GraphView>('open_nodes', { names: [name] });
    if (entities.length === 0) {
      throw new InvalidInputError(
        `${name} is not in the graph: give its type to create it, e.g. engram graph add "${name}" --type person`,
      );
    }
  }
  // The type of an existing entity is kept; create_entities only reads it for a new one.
  const created = await run<{ entities: GraphEntity[] }>('create_entities', {
    entities: [{ name, entityType: type ?? 'thing', observations }],
  });
  if (created.entities.length > 0 || observations.length === 0) return { entities: created.entities, results: [] };
  const { results } = await run<Pick<Added, 'results'>>('add_observations', {
    observations: [{ entityName: name, contents: observations }],
  });
  return { entities: [], results };
}

function describeAdded(name: string, type: string | undefined, observations: readonly string[], added: Added): string {
  const [entity] = added.entities;
  if (entity) {
    const facts = observations.length > 0 ? ` with ${count(entity.observations.length, 'observation', 'observations')}` : '';
    return `created ${entity.name} (${entity.entityType})${facts}`;
  }
  const [result] = added.results;
  const kept = type === undefined ? '' : ' (its type is kept)';
  if (!result) return `${name} is already in the graph: unchanged${kept}; add facts with --observation or engram graph observe`;
  const n = result.addedObservations.length;
  if (n === 0)
    return `${result.entityName} is already in the graph and already has ${observations.length === 1 ? 'this observation' : 'these observations'}`;
  return `${result.entityName} is already in the graph: added ${count(n, 'observation', 'observations')}${kept}`;
}
