/** The sessions, most recently updated first, a page at a time. */
import { EmptyState } from '../components/empty-state.js';
import { PageLinks } from '../components/page-links.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatTime } from '../format.js';
import { PINNED_TITLE, RECALLED_TITLE } from '../injected-lanes.js';
import { Layout, type PageChrome } from '../layout.js';
import { sessionHref } from '../links.js';
import type { SessionsView } from '../loaders/sessions.js';

/** The sessions list. */
export function SessionsPage(props: { view: SessionsView; chrome: PageChrome }) {
  const { view } = props;
  return (
    <Layout title="Sessions" chrome={props.chrome}>
      <h1>Sessions</h1>
      <p class="lead">
        Sessions, most recently active first. Recalls outside a session are on the <a href="/receipts">receipts</a> page.
      </p>
      {view.sessions.length === 0 ? (
        <EmptyState>
          {view.deep
            ? 'No older sessions: the list ends here.'
            : 'No sessions yet. A session is opened by session.start or beforeTurn, engram recall and the hooks.'}
        </EmptyState>
      ) : (
        <ScrollBox>
          <table class="sessions">
            <thead>
              <tr>
                <th>Session</th>
                <th>Scope</th>
                <th class="num">Turns</th>
                <th class="num">Decisions</th>
                <th class="num" title={RECALLED_TITLE}>
                  Recalled
                </th>
                <th class="num" title={PINNED_TITLE}>
                  Pinned
                </th>
                <th>First turn</th>
                <th>Last turn</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {view.sessions.map((session) => (
                <tr>
                  <td>
                    <a href={sessionHref(session.id)}>{session.id}</a>
                    {session.endedAt !== null && <span class="muted"> (ended)</span>}
                  </td>
                  <td>{session.scope}</td>
                  <td class="num">{session.turns}</td>
                  <td class="num">{session.receipts}</td>
                  <td class="num">{session.recalled}</td>
                  <td class="num">{session.injected - session.recalled}</td>
                  <td>{formatTime(session.firstTurnAt)}</td>
                  <td>{formatTime(session.lastTurnAt)}</td>
                  <td>{formatTime(session.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <PageLinks
        path="/sessions"
        query={{}}
        previous={null}
        next={view.next}
        shown={view.sessions.length}
        deep={view.deep}
        words={['newer', 'older']}
      />
    </Layout>
  );
}
