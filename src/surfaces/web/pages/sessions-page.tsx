/** The sessions that recalled recently, newest activity first. */
import { formatCount, formatTime } from '../format.js';
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
        Sessions whose turns recalled, from the {view.complete ? '' : 'latest '}
        {formatCount(view.receiptsRead)} receipts{view.complete ? '' : ' (older sessions are not listed)'}.
        {view.withoutSession > 0 && (
          <>
            {' '}
            {view.withoutSession} recalls ran outside a session: see <a href="/receipts">receipts</a>.
          </>
        )}
      </p>
      {view.sessions.length === 0 ? (
        <p class="muted">No session has recalled yet: receipts are written by session.beforeTurn, engram recall and the hooks.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Session</th>
              <th class="num">Turns</th>
              <th class="num">Decisions</th>
              <th class="num">Injected</th>
              <th>First</th>
              <th>Last</th>
            </tr>
          </thead>
          <tbody>
            {view.sessions.map((session) => (
              <tr>
                <td>
                  <a href={sessionHref(session.id)}>{session.id}</a>
                </td>
                <td class="num">{session.turns}</td>
                <td class="num">{session.receipts}</td>
                <td class="num">{session.injected}</td>
                <td>{formatTime(session.firstAt)}</td>
                <td>{formatTime(session.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
