/**
 * The graph part of the Store contract: entities, relations and mentions (see
 * `src/store/graph-store.ts`), in one file per idea. It needs memories too, since
 * mentions and relations point at them.
 */
import { graphChangeMarkContract } from './graph-change-mark.js';
import { graphEntitiesContract } from './graph-entities.js';
import { graphExtractionContract } from './graph-extraction.js';
import type { GraphTestStore } from './graph-fixtures.js';
import { graphLifetimesContract } from './graph-lifetimes.js';
import { graphMentionsContract } from './graph-mentions.js';
import { graphOverviewContract } from './graph-overview.js';
import { graphRelationsContract } from './graph-relations.js';

/** Runs the graph contract against the store of the current test (see `freshStoreForEachTest`). */
export function graphStoreContract(current: () => GraphTestStore): void {
  graphEntitiesContract(current);
  graphRelationsContract(current);
  graphExtractionContract(current);
  graphMentionsContract(current);
  graphOverviewContract(current);
  graphLifetimesContract(current);
  graphChangeMarkContract(current);
}
