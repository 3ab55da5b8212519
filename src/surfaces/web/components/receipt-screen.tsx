/**
 * One recall decision on one screen, the content of `engram receipts`: the query, the mode,
 * budget, threshold and latency, the working set, the quotas, every injected memory with its
 * lane, tier, outcome, factors and reason, and the best of what was left out and why.
 */
import type { ReceiptEntry } from '../../../entries/model.js';
import type { Receipt } from '../../../index.js';
import { LEFT_OUT_SHOWN, OUTCOME_WORDS } from '../../cli/receipt-format.js';
import { formatScore, formatTime, oneLine } from '../format.js';
import { memoryHref, receiptsHref, sessionHref } from '../links.js';
import { EmptyState } from './empty-state.js';
import { ColumnHead } from './receipt-legend.js';
import { ScrollBox } from './scroll-box.js';

const NOTHING_INJECTED = 'Nothing was injected on this turn: no memory cleared the threshold, and nothing was pinned.';
const NOTHING_LEFT_OUT =
  'No candidate was left out: memories the search finds but does not inject are listed here, with the reason.';

/** `linkTurn`: offer a link to the turn's own page (not on that page itself). */
export function ReceiptScreen(props: { receipt: Receipt; linkTurn: boolean }) {
  const { receipt } = props;
  return (
    <section class="card receipt">
      <h2>
        {receipt.path} recall · turn {receipt.turn}
        {receipt.sessionId !== null && (
          <>
            {' '}
            of session <a href={sessionHref(receipt.sessionId)}>{receipt.sessionId}</a>
          </>
        )}
      </h2>
      <ReceiptFacts receipt={receipt} />
      <h3>
        Injected{' '}
        <a class="muted" href="#receipt-columns">
          what the columns mean
        </a>
      </h3>
      <ScrollBox>
        <EntryTable entries={receipt.chosen} why={receipt.whyTheseIds} empty={NOTHING_INJECTED} />
      </ScrollBox>
      <h3>
        Left out{' '}
        {receipt.leftOut.length > 0 && (
          <span class="muted">
            (best {Math.min(LEFT_OUT_SHOWN, receipt.leftOut.length)} of {receipt.leftOut.length})
          </span>
        )}
      </h3>
      <ScrollBox>
        <EntryTable entries={receipt.leftOut.slice(0, LEFT_OUT_SHOWN)} why={null} empty={NOTHING_LEFT_OUT} />
      </ScrollBox>
      {receipt.leftOut.length > LEFT_OUT_SHOWN && (
        <details>
          <summary>the other {receipt.leftOut.length - LEFT_OUT_SHOWN}</summary>
          <ScrollBox>
            <EntryTable entries={receipt.leftOut.slice(LEFT_OUT_SHOWN)} why={null} empty={NOTHING_LEFT_OUT} />
          </ScrollBox>
        </details>
      )}
      {props.linkTurn && receipt.sessionId !== null && (
        <p>
          <a href={receiptsHref(receipt.sessionId, receipt.turn)}>this turn on its own page</a>
        </p>
      )}
    </section>
  );
}

/** The decision's facts: query, mode, latency, summary, working set, quotas and counts. */
function ReceiptFacts(props: { receipt: Receipt }) {
  const { receipt } = props;
  const { budget, latencyMs, quota, workingSet } = receipt;
  return (
    <dl class="kv">
      <dt>receipt</dt>
      <dd class="id">{receipt.id}</dd>
      <dt>when</dt>
      <dd>{formatTime(receipt.createdAt)}</dd>
      <dt>query</dt>
      <dd class="text">{receipt.query}</dd>
      <dt>mode</dt>
      <dd>
        {receipt.selectionMode}, budget {budget.maxItems} (hot lane {budget.hotLane}), threshold {budget.threshold}
      </dd>
      <dt>latency</dt>
      <dd>
        {latencyMs.total.toFixed(1)} ms (embed {latencyMs.embed.toFixed(1)}, search {latencyMs.search.toFixed(1)})
      </dd>
      <dt>why</dt>
      <dd>{receipt.whySummary}</dd>
      <dt>working set</dt>
      <dd>
        {!workingSet.enabled ? (
          'off'
        ) : workingSet.memoryId === null ? (
          'nothing to carry'
        ) : (
          <>
            <a href={memoryHref(workingSet.memoryId)}>{workingSet.memoryId}</a>, carrying {workingSet.itemIds.length} memories
          </>
        )}
      </dd>
      <dt>quotas</dt>
      <dd>
        must ≤ {quota.mustMax}, nice ≥ {quota.niceMin}, unknown ≤ {quota.unknownMax} (wildcard used {quota.wildcardUsed}) ·
        selected must {quota.selected.must}, nice {quota.selected.nice}, unknown {quota.selected.unknown} · spilled{' '}
        {quota.spilled}
      </dd>
      <dt>counts</dt>
      <dd>
        {receipt.candidates} candidates, {receipt.belowThreshold} below the threshold, {receipt.suppressedByRepeat.length}{' '}
        suppressed by repeat, {receipt.cooledDown.length} cooled down, {receipt.nearDuplicates.length} near-duplicates,{' '}
        {receipt.excludedAsBackboneDuplicate.length} already in the working set
      </dd>
    </dl>
  );
}

/**
 * Candidates with lane, tier, outcome and every factor of their score; `why` gives the reason of
 * each injected one, `empty` the sentence when there are none.
 */
function EntryTable(props: { entries: readonly ReceiptEntry[]; why: Readonly<Record<string, string>> | null; empty: string }) {
  if (props.entries.length === 0) return <EmptyState>{props.empty}</EmptyState>;
  return (
    <table class="entries">
      <thead>
        <tr>
          <ColumnHead column="Lane" />
          <ColumnHead column="Tier" />
          <ColumnHead column="Outcome" />
          <ColumnHead column="Memory" />
          <ColumnHead column="Score" num />
          <ColumnHead column="Raw" num />
          <ColumnHead column="Shift" num />
          <ColumnHead column="Rel" num />
          <ColumnHead column="Cool" num />
          <ColumnHead column="Scope" num />
          <ColumnHead column="Rec" num />
          <ColumnHead column="Imp" num />
          <ColumnHead column="Nov" num />
          <ColumnHead column="Rep" num />
          <ColumnHead column="Exact" num />
          <ColumnHead column="MMR" num />
        </tr>
      </thead>
      <tbody>
        {props.entries.map((entry) => {
          const f = entry.factors;
          const why = props.why?.[entry.id];
          return (
            <tr>
              <td>{entry.lane ?? '—'}</td>
              <td>{entry.tier}</td>
              <td>{OUTCOME_WORDS[entry.outcome]}</td>
              <td>
                <a class="id" href={memoryHref(entry.id)}>
                  {entry.id}
                </a>{' '}
                <span class="badge">{entry.kind}</span>
                <div class="text">{oneLine(entry.preview, 160)}</div>
                {why && <div class="muted">— {why}</div>}
                {entry.via && !why && <div class="muted">— via {entry.via}</div>}
              </td>
              <td class="num">{formatScore(f?.score)}</td>
              <td class="num">{formatScore(f?.raw)}</td>
              <td class="num">{formatScore(f?.storeShift)}</td>
              <td class="num">{formatScore(f?.relevance)}</td>
              <td class="num">{formatScore(f?.cooldown)}</td>
              <td class="num">{formatScore(f?.scope)}</td>
              <td class="num">{formatScore(f?.recency)}</td>
              <td class="num">{formatScore(f?.importance)}</td>
              <td class="num">{formatScore(f?.novelty)}</td>
              <td class="num">{formatScore(f?.repeat)}</td>
              <td class="num">{formatScore(f?.exact)}</td>
              <td class="num">{entry.diversityPenalty ? formatScore(entry.diversityPenalty) : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
