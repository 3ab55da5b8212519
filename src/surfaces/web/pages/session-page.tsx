/** One session: every turn with its decisions, and the context the model would be given now. */
import { formatTime, oneLine } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { receiptsHref } from '../links.js';
import type { SessionView } from '../loaders/sessions.js';

/** One session's turns. */
export function SessionPage(props: { view: SessionView; chrome: PageChrome }) {
  const { view } = props;
  return (
    <Layout title={`Session ${view.id}`} chrome={props.chrome}>
      <h1>
        Session <span class="id">{view.id}</span>
      </h1>
      {view.turns.length === 0 ? (
        <p class="muted">No receipts for this session: it has not recalled, or it does not exist.</p>
      ) : (
        <>
          <h2>Turns</h2>
          <table>
            <thead>
              <tr>
                <th class="num">Turn</th>
                <th>Recall</th>
                <th>Query</th>
                <th class="num">Injected</th>
                <th class="num">Left out</th>
                <th class="num">Latency</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {view.turns.flatMap(({ turn, receipts }) =>
                receipts.map((receipt) => (
                  <tr>
                    <td class="num">
                      <a href={receiptsHref(view.id, turn)}>{turn}</a>
                    </td>
                    <td>{receipt.path}</td>
                    <td>
                      <a href={receiptsHref(view.id, turn)}>{oneLine(receipt.query, 100) || '(no query)'}</a>
                    </td>
                    <td class="num">{receipt.chosen.length}</td>
                    <td class="num">{receipt.leftOut.length}</td>
                    <td class="num">{receipt.latencyMs.total.toFixed(1)} ms</td>
                    <td>{formatTime(receipt.createdAt)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </>
      )}
      {view.context && (
        <>
          <h2>Context now</h2>
          <p class="muted">
            What <code>session.context()</code> gives the model at turn {view.context.turn}: the handoff, the working set, this
            turn’s recall, the scratchpad and the session’s thoughts.
          </p>
          {view.context.sections.length === 0 ? <p class="muted">empty</p> : <pre>{view.context.text}</pre>}
        </>
      )}
    </Layout>
  );
}
