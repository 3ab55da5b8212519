/** Recall receipts, newest first: one screen per decision (`engram receipts`). */
import type { Receipt } from '../../../index.js';
import { EmptyState } from '../components/empty-state.js';
import { ReceiptLegend } from '../components/receipt-legend.js';
import { ReceiptScreen } from '../components/receipt-screen.js';
import { Layout, type PageChrome } from '../layout.js';
import { sessionHref } from '../links.js';

/** The receipts of a session, of one turn, or the latest ones. */
export function ReceiptsPage(props: {
  receipts: readonly Receipt[];
  session: string | undefined;
  turn: number | undefined;
  chrome: PageChrome;
}) {
  const { session, turn } = props;
  const title = session ? (turn ? `Turn ${turn} of session ${session}` : `Receipts of session ${session}`) : 'Latest receipts';
  return (
    <Layout title={title} chrome={props.chrome}>
      <h1>{title}</h1>
      {session && (
        <p>
          <a href={sessionHref(session)}>all turns of this session</a>
        </p>
      )}
      <form class="filters" method="get" action="/receipts">
        <label>
          Session
          <input type="text" name="session" value={session ?? ''} placeholder="any" />
        </label>
        <label>
          Turn
          <input type="text" name="turn" value={turn === undefined ? '' : String(turn)} size={5} placeholder="any" />
        </label>
        <button type="submit">Show</button>
      </form>
      {props.receipts.length === 0 ? (
        <EmptyState>
          {session
            ? `No receipt for ${turn ? `turn ${turn} of ` : ''}session ${session}: a receipt is written on every recall of the session (session.beforeTurn, engram recall, the hooks).`
            : 'No receipts yet. A receipt is written on every recall (session.beforeTurn, engram recall, the hooks), saying what was injected and why.'}
        </EmptyState>
      ) : (
        <>
          {props.receipts.map((receipt) => (
            <ReceiptScreen receipt={receipt} linkTurn={turn === undefined} />
          ))}
          <ReceiptLegend />
        </>
      )}
    </Layout>
  );
}
