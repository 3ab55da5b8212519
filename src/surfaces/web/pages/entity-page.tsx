/** One entity: its observations, a picture of its neighbourhood, its relations, and the memories that reach it. */
import { EmptyState } from '../components/empty-state.js';
import { MemoryTable } from '../components/memory-table.js';
import { Neighbourhood } from '../components/neighbourhood.js';
import { ScrollBox } from '../components/scroll-box.js';
import { Layout, type PageChrome } from '../layout.js';
import { entityHref } from '../links.js';
import { describeLinks, type EntityView, MAX_DRAWN_NEIGHBOURS } from '../loaders/graph.js';

/** One entity of the knowledge graph. */
export function EntityPage(props: { view: EntityView; chrome: PageChrome }) {
  const { entity, neighbours, memories } = props.view;
  return (
    <Layout title={entity.name} chrome={props.chrome}>
      <h1>
        {entity.name} <span class="badge">{entity.entityType}</span>
      </h1>
      <h2>Observations</h2>
      {entity.observations.length === 0 ? (
        <EmptyState>No observation is recorded about it: engram graph observe adds one.</EmptyState>
      ) : (
        <ul>
          {entity.observations.map((observation) => (
            <li class="text">{observation}</li>
          ))}
        </ul>
      )}
      <h2>Neighbourhood</h2>
      {neighbours.length === 0 ? (
        <EmptyState>No relation touches it: extraction relates it to the entities its memories link it to.</EmptyState>
      ) : (
        <>
          <Neighbourhood entity={entity} neighbours={neighbours} />
          {neighbours.length > MAX_DRAWN_NEIGHBOURS && (
            <p class="muted">{neighbours.length - MAX_DRAWN_NEIGHBOURS} more neighbours are listed below but not drawn.</p>
          )}
          <ul>
            {neighbours.map((neighbour) => (
              <li>
                {describeLinks(neighbour)} <a href={entityHref(neighbour.name)}>{neighbour.name}</a>{' '}
                <span class="muted">({neighbour.entity?.entityType ?? 'unknown'})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Memories about it</h2>
      <p class="muted">What a search for its name finds, with the graph path that reached each memory.</p>
      <ScrollBox>
        <MemoryTable
          rows={memories.map((hit) => ({ memory: hit.memory, hit }))}
          search
          empty={`No memory about it is found: a search for “${entity.name}” reaches none.`}
        />
      </ScrollBox>
    </Layout>
  );
}
