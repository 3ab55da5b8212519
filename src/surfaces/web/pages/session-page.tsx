/** One session: every turn with its decisions, and the context the model would be given now. */
import { EmptyState } from '../components/empty-state.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatTime, oneLine } from '../format.js';
import { injectedByLane, PINNED_TITLE, RECALLED_TITLE } from '../injected-lanes.js';
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
        <EmptyState>
          No recall receipts for this session: it has not recalled yet, or there is no session with this id. A receipt is written
          on every recall (session.beforeTurn, engram recall, the hooks).
        </EmptyState>
      ) : (
        <>
          <h2>Turns</h2>
          <p class="muted">
            Recalled: memories a turn’s query brought in. Pinned: what the working set carries (or hard rules and pinned memories
            when there is none), injected on every turn whatever the query.
          </p>
          <ScrollBox>
            <table class="turns">
              <thead>
                <tr>
                  <th class="num">Turn</th>
                  <th>Recall</th>
                  <th>Query</th>
                  <th class="num" title={RECALLED_TITLE}>
                    Recalled
                  </th>
                  <th class="num" title={PINNED_TITLE}>
                    Pinned
                  </th>
                  <th class="num">Left out</th>
                  <th class="num">Latency</th>
                  <th>When</th>
                </tr>
              </thead>
              <tbody>
                {view.turns.flatMap(({ turn, receipts }) =>
                  receipts.map((receipt) => {
                    const { recalled, pinned } = injectedByLane(receipt);
                    return (
                      <tr>
                        <td class="num">
                          <a href={receiptsHref(view.id, turn)}>{turn}</a>
                        </td>
                        <td>{receipt.path}</td>
                        <td>
                          <a href={receiptsHref(view.id, turn)}>{oneLine(receipt.query, 100) || '(no query)'}</a>
                        </td>
                        <td class="num">{recalled}</td>
                        <td class="num">{pinned}</td>
                        <td class="num">{receipt.leftOut.length}</td>
                        <td class="num">{receipt.latencyMs.total.toFixed(1)} ms</td>
                        <td>{formatTime(receipt.createdAt)}</td>
                      </tr>
                    );
                  }),
                )}
              </tbody>
            </table>
          </ScrollBox>
        </>
      )}
      {view.context && (
        <>
          <h2>Context now</h2>
          <p class="muted">
            What <code>session.context()</code> gives the model at turn {view.context.turn}: the handoff, the working set, this
            turn’s recall, the scratchpad and the session’s thoughts.
          </p>
          {view.context.sections.length === 0 ? (
            <EmptyState>
              The context is empty: there is no handoff note, working set, recall, scratchpad or thought to give the model yet.
            </EmptyState>
          ) : (
            <pre>{view.context.text}</pre>
          )}
        </>
      )}
    </Layout>
  );
}
