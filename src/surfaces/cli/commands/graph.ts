/**
 * `engram graph …`: the knowledge graph from the shell. Each subcommand runs one of the graph
 * tools (the MCP reference memory server's), so the terminal and an agent change the graph
 * the same way: `add` (create_entities), `relate` and `unrelate` (create_relations,
 * delete_relations), `observe` and `unobserve` (add_observations, delete_observations),
 * `delete` (delete_entities), `show` (open_nodes), `search` (search_nodes), `list` (read_graph).
 * `--json` prints the tool's answer.
 */
import type { Command } from 'commander';

import { registerGraphDeletes, registerGraphWrites } from './graph-change-commands.js';
import { registerGraphReads } from './graph-read-commands.js';

/** Registers `engram graph` and its subcommands. */
export function registerGraph(program: Command): void {
  const graph = program
    .command('graph')
    .description('the knowledge graph: entities, their observations and the relations between them')
    .addHelpText(
      'after',
      `
Examples:
  engram graph add Alice --type person --observation "Prefers short answers"
  engram graph add Acme --type organization
  engram graph relate Alice works_at Acme
  engram graph observe Alice "Speaks Spanish" "Lives in Lyon"
  engram graph show Alice
  engram graph search spanish
  engram graph list --limit 50 --json`,
    );
  registerGraphWrites(graph);
  registerGraphDeletes(graph);
  registerGraphReads(graph);
}
