/**
 * The `engram graph` subcommands that read: `show` (open_nodes), `search` (search_nodes) and
 * `list` (read_graph, a page at a time, with the command for the next page).
 */
import type { Command } from 'commander';

import { GRAPH_TOOL_LIMITS, type GraphView, type KnowledgeGraphPage } from '../../../entries/tools.js';
import { NotFoundError } from '../../../index.js';
import { graphBlocks } from './graph-format.js';
import { runGraphTool, wholeOption } from './graph-run.js';

/** `show`, `search`, `list`. */
export function registerGraphReads(graph: Command): void {
  graph
    .command('show')
    .description('entities by name, with their observations and the relations touching them (open_nodes)')
    .argument('<names...>', 'the entities')
    .action(async (names: string[], _options: unknown, command: Command) => {
      await runGraphTool<GraphView>(command, 'open_nodes', { names }, (view) => {
        const shown = new Set(view.entities.map((entity) => entity.name.toLowerCase()));
        const missing = names.filter((name) => !shown.has(name.trim().toLowerCase()));
        if (view.entities.length === 0) {
          throw new NotFoundError(`no entity named ${missing.join(', ')}: find names with engram graph search or list`);
        }
        return [graphBlocks(view), ...(missing.length > 0 ? [`\nnot in the graph: ${missing.join(', ')}`] : [])].join('\n');
      });
    });
  graph
    .command('search')
    .description('entities whose name, type or observations hold every word of the query (search_nodes)')
    .argument('<query...>', 'the words to look for')
    .action(async (words: string[], _options: unknown, command: Command) => {
      const query = words.join(' ');
      await runGraphTool<GraphView>(command, 'search_nodes', { query }, (view) =>
        view.entities.length > 0 ? graphBlocks(view) : `no entities match "${query}"`,
      );
    });
  graph
    .command('list')
    .description('one page of the whole graph, in creation order (read_graph)')
    .option('--offset <n>', 'entities to skip (the next page starts where the last one ended)', '0')
    .option('-n, --limit <n>', `entities per page (1 to ${GRAPH_TOOL_LIMITS.maxPage})`, String(GRAPH_TOOL_LIMITS.defaultPage))
    .action(async (options: { offset: string; limit: string }, command: Command) => {
      const offset = wholeOption(options.offset, '--offset', 0, Number.MAX_SAFE_INTEGER);
      const limit = wholeOption(options.limit, '--limit', 1, GRAPH_TOOL_LIMITS.maxPage);
      await runGraphTool<KnowledgeGraphPage>(command, 'read_graph', { offset, limit }, (page) => {
        if (page.totalEntities === 0) return 'the graph is empty';
        if (page.entities.length === 0) return `no entities past ${offset} (the graph has ${page.totalEntities})`;
        const first = (offset ?? 0) + 1;
        const footer = `entities ${first}–${first + page.entities.length - 1} of ${page.totalEntities}`;
        const next = page.nextOffset === null ? '' : `; next page: engram graph list --offset ${page.nextOffset}`;
        return `${graphBlocks(page)}\n\n${footer}${next}`;
      });
    });
}
