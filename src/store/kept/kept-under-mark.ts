/**
 * Everything the read layer keeps for one tenant, under one change mark: when the mark moves the
 * whole set is replaced by an empty one, so no kept thing checks anything itself. The mark is
 * equal to an earlier mark exactly when nothing a search reads of the memories and their graph
 * was written since, by anyone (`MemoryReader.memoryChangeMark`).
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Entity, Mention, Relation } from '../../model/graph.js';
import { KeptAnswers } from './kept-answers.js';
import { KeptMemories } from './kept-memories.js';
import { KeptMentions } from './kept-mentions.js';
import { KeptSessionTurns } from './kept-session-turns.js';

export class KeptUnderMark {
  /** Memories by id, or null when the store's mark leaves another process's retrieval stamps out. */
  readonly memories: KeptMemories | null;
  readonly mentions = new KeptMentions();
  readonly sessionTurns = new KeptSessionTurns();
  /** The graph lookups of graph-aware recall, by their arguments. */
  readonly entities = new KeptAnswers<Entity>((entity) => ({
    ...entity,
    aliases: [...entity.aliases],
    observations: [...entity.observations],
  }));
  readonly relations = new KeptAnswers<Relation>((relation) => ({ ...relation }));
  readonly mentionsOf = new KeptAnswers<Mention>((mention) => ({ ...mention }));

  constructor(
    readonly mark: string,
    keepsMemories: boolean,
  ) {
    this.memories = keepsMemories ? new KeptMemories() : null;
  }
}
