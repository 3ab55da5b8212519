/**
 * The memories table: one row per memory with its labels and the start of its text; on a
 * search, the score the hits are ordered by and the signals and factors behind it.
 */
import type { SearchHit } from '../../../index.js';
import { formatScore, formatTime, oneLine } from '../format.js';
import { memoryHref } from '../links.js';
import type { MemoryRow } from '../loaders/memory-list.js';
import { MemoryBadges } from './badges.js';
import { EmptyState } from './empty-state.js';

/** Memories as table rows; `search` adds the score column (the number the hits are ordered by); `empty` is the sentence shown when there are none. */
export function MemoryTable(props: { rows: readonly MemoryRow[]; search: boolean; empty?: string }) {
  if (props.rows.length === 0) return <EmptyState>{props.empty ?? 'No memory matches this search.'}</EmptyState>;
  return (
    <table class="memories">
      <thead>
        <tr>
          {props.search && <th class="num">Score</th>}
          <th>Memory</th>
          <th>Scope</th>
          <th>Occurred</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map(({ memory, hit }) => (
          <tr>
            {props.search && <td class="num">{formatScore(hit?.score)}</td>}
            <td>
              <div>
                <MemoryBadges memory={memory} />
                <a class="id" href={memoryHref(memory.id)}>
                  {memory.id}
                </a>
              </div>
              <div class="text">{oneLine(memory.text, 220)}</div>
              {hit && <HitDetail hit={hit} />}
            </td>
            <td>{memory.scope}</td>
            <td class="num">{formatTime(memory.occurredAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Why a hit ranks where it does: score, the signals measured and the factors applied. */
export function HitDetail(props: { hit: SearchHit }) {
  const { hit } = props;
  const { signals, factors } = hit;
  return (
    <div class="muted">
      <small>
        score {formatScore(hit.score)} = relevance {formatScore(hit.relevance)} × the factors · relevance from{' '}
        {signals.fused === null
          ? `raw ${formatScore(hit.raw)}`
          : `fused ${signals.fused.score.toFixed(1)} (best ${signals.fused.best.toFixed(1)}, level ${formatScore(signals.fused.level)})`}
        {hit.storeShift > 0 && ` (store shift ${formatScore(hit.storeShift)})`} · signals: bm25{' '}
        {signals.bm25 === null ? '—' : signals.bm25.toFixed(2)}, coverage {formatScore(signals.coverage)}, cosine{' '}
        {formatScore(signals.cosine)}, keyword {formatScore(signals.keyword)}, graph {formatScore(signals.graph)} · factors:
        recency {formatScore(factors.recency)}, scope {formatScore(factors.scope)}, exact {formatScore(factors.exact)}, cooldown{' '}
        {formatScore(factors.cooldown)}
        {hit.via && ` · via ${hit.via}`}
      </small>
    </div>
  );
}
