/** The working set of each scope (seed 002's backbone lane): its text and the memories it carries. */
import { MemoryBadges } from '../components/badges.js';
import { EmptyState } from '../components/empty-state.js';
import { formatTime, oneLine } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { memoryHref } from '../links.js';
import type { WorkingSetView } from '../loaders/notes.js';

/** Every scope's working set. */
export function WorkingSetPage(props: { sets: readonly WorkingSetView[]; chrome: PageChrome }) {
  return (
    <Layout title="Working set" chrome={props.chrome}>
      <h1>Working set</h1>
      <p class="lead">
        The pinned backbone of every recall, one per scope: hard rules, pinned memories, constraints, preferences, decisions and
        the goal. Engram rewrites it as those memories change.
      </p>
      {props.sets.length === 0 && (
        <EmptyState>
          No working set yet. Engram writes one per scope when a session recalls and there are hard rules, pinned memories,
          constraints, preferences, decisions or a goal to carry.
        </EmptyState>
      )}
      {props.sets.map(({ memory, items }) => (
        <section class="card">
          <h2>
            Scope {memory.scope} <span class="muted">· updated {formatTime(memory.updatedAt)} ·</span>{' '}
            <a href={memoryHref(memory.id)}>{memory.id}</a>
          </h2>
          <pre>{memory.text}</pre>
          <h3>Carries {items.length} memories</h3>
          <ul>
            {items.map((item) => (
              <li>
                <MemoryBadges memory={item} /> <a href={memoryHref(item.id)}>{oneLine(item.text, 120)}</a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Layout>
  );
}
