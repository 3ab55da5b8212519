/**
 * `engram.graph` with its writes in the activity log: every change a caller makes to the
 * knowledge graph (the graph tools over MCP, the HTTP graph routes, `engram graph`) adds one
 * line, named as the tool (`create_entities`, …); a call that changed nothing adds none. Reads
 * pass straight through. What extraction records on a memory write is not logged apart: the
 * memory's own line covers it.
 */
import type {
  GraphEntity,
  GraphEntityInput,
  GraphPageRequest,
  GraphRelation,
  GraphView,
  KnowledgeGraph,
  KnowledgeGraphPage,
} from '../tools/knowledge-graph.js';
import { type ActivityLine, graphLines } from './activity-lines.js';

/** Wraps `graph` so each write is followed by its line, handed to `log`. */
export class LoggedKnowledgeGraph implements KnowledgeGraph {
  constructor(
    private readonly graph: KnowledgeGraph,
    private readonly log: (line: ActivityLine) => Promise<unknown>,
  ) {}

  async createEntities(entities: readonly GraphEntityInput[]): Promise<GraphEntity[]> {
    const created = await this.graph.createEntities(entities);
    await this.record(graphLines.createEntities(created));
    return created;
  }

  async createRelations(relations: readonly GraphRelation[]): Promise<GraphRelation[]> {
    const created = await this.graph.createRelations(relations);
    await this.record(graphLines.createRelations(created));
    return created;
  }

  async addObservations(
    observations: readonly { entityName: string; contents: readonly string[] }[],
  ): Promise<{ entityName: string; addedObservations: string[] }[]> {
    const added = await this.graph.addObservations(observations);
    await this.record(graphLines.addObservations(added));
    return added;
  }

  async deleteEntities(entityNames: readonly string[]): Promise<string[]> {
    const deleted = await this.graph.deleteEntities(entityNames);
    if (deleted.length > 0) await this.record(graphLines.deleteEntities(deleted));
    return deleted;
  }

  async deleteObservations(deletions: readonly { entityName: string; observations: readonly string[] }[]): Promise<number> {
    const removed = await this.graph.deleteObservations(deletions);
    if (removed > 0) await this.record(graphLines.deleteObservations(deletions));
    return removed;
  }

  async deleteRelations(relations: readonly GraphRelation[]): Promise<number> {
    const removed = await this.graph.deleteRelations(relations);
    if (removed > 0) await this.record(graphLines.deleteRelations(relations));
    return removed;
  }

  readGraph(page?: GraphPageRequest): Promise<KnowledgeGraphPage> {
    return this.graph.readGraph(page);
  }

  searchNodes(query: string): Promise<GraphView> {
    return this.graph.searchNodes(query);
  }

  openNodes(names: readonly string[]): Promise<GraphView> {
    return this.graph.openNodes(names);
  }

  private async record(line: ActivityLine | null): Promise<void> {
    if (line) await this.log(line);
  }
}
