/** The knowledge graph: a page of entities (or those matching a search) and the relations among them. */
import type { GraphRelation } from '../../../entries/tools.js';
import { EmptyState } from '../components/empty-state.js';
import { Pager } from '../components/pager.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatCount, oneLine } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { entityHref } from '../links.js';
import { ENTITIES_PAGE, type GraphListView } from '../loaders/graph.js';

/** The knowledge graph's entities. */
export function GraphPage(props: { view: GraphListView; chrome: PageChrome }) {
  const { view } = props;
  return (
    <Layout title="Knowledge graph" chrome={props.chrome}>
      <h1>Knowledge graph</h1>
      <form class="filters" method="get" action="/graph" role="search">
        <label>
          Find entities
          <input type="search" name="q" value={view.query ?? ''} placeholder="every word of a name, type or observation" />
        </label>
        <button class="primary" type="submit">
          Find
        </button>
        <a href="/graph">all</a>
      </form>
      {view.entities.length === 0 ? (
        <EmptyState>
          {view.query
            ? `No entity matches “${view.query}”: an entity matches when every word is in its name, type or observations.`
            : view.offset > 0
              ? 'No more entities: the list ends here.'
              : 'No entities yet. Extraction adds the people, places and things a memory names as it is written; engram graph add adds one by hand.'}
        </EmptyState>
      ) : (
        <p class="muted">
          {view.query
            ? `${view.entities.length} entities match.`
            : `${formatCount(view.totalEntities ?? 0)} entities in all, in the order they were created.`}
        </p>
      )}
      {view.entities.length > 0 && (
        <ScrollBox>
          <table>
            <thead>
              <tr>
                <th>Entity</th>
                <th>Type</th>
                <th>Observations</th>
              </tr>
            </thead>
            <tbody>
              {view.entities.map((entity) => (
                <tr>
                  <td>
                    <a href={entityHref(entity.name)}>{entity.name}</a>
                  </td>
                  <td>{entity.entityType}</td>
                  <td class="text">{entity.observations.length === 0 ? '—' : oneLine(entity.observations.join(' · '), 160)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {!view.query && (
        <Pager
          path="/graph"
          query={{}}
          offset={view.offset}
          previousOffset={view.offset > 0 ? Math.max(0, view.offset - ENTITIES_PAGE) : null}
          nextOffset={view.nextOffset}
          shown={view.entities.length}
        />
      )}
      <h2>Relations {view.query ? 'touching them' : 'from these entities'}</h2>
      <RelationList
        relations={view.relations}
        empty={
          view.entities.length === 0
            ? 'No relations to show: relations appear here with the entities they link.'
            : `No relation ${view.query ? 'touches' : 'starts from'} these entities: extraction relates the entities a memory links, and engram graph relate adds one by hand.`
        }
      />
    </Layout>
  );
}

/** Relations as `from  type →  to`, each end linked to its entity. */
export function RelationList(props: { relations: readonly GraphRelation[]; empty: string }) {
  if (props.relations.length === 0) return <EmptyState>{props.empty}</EmptyState>;
  return (
    <ul>
      {props.relations.map((relation) => (
        <li>
          <a href={entityHref(relation.from)}>{relation.from}</a> <span class="muted">{relation.relationType} →</span>{' '}
          <a href={entityHref(relation.to)}>{relation.to}</a>
        </li>
      ))}
    </ul>
  );
}
