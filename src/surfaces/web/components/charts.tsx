/**
 * The inspector's two small charts, as inline SVG (no script, nothing fetched): recall activity
 * per day, and counts as horizontal bars. Each bar has a `<title>`, the browser's own tooltip.
 */
import { formatCount, oneLine } from '../format.js';
import type { RecallDay } from '../loaders/stats.js';
import { EmptyState } from './empty-state.js';

const INK = '#2459c2';
const SOFT = '#b9cbef';
const AXIS = '#8a96a6';

/** Memories injected per day (light, wide) and the recall decisions that injected them (dark, narrow). */
export function RecallChart(props: { days: readonly RecallDay[] }) {
  const { days } = props;
  const width = 760;
  const height = 190;
  const left = 36;
  const bottom = 24;
  const plot = height - bottom - 10;
  const max = Math.max(1, ...days.map((day) => Math.max(day.decisions, day.injected)));
  const step = (width - left) / Math.max(1, days.length);
  const y = (value: number) => 10 + plot - (value / max) * plot;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label="recall decisions and injected memories per day">
      <line x1={left} y1={10 + plot} x2={width} y2={10 + plot} stroke={AXIS} />
      <text x={left - 6} y={14} font-size="11" text-anchor="end" fill={AXIS}>
        {formatCount(max)}
      </text>
      <text x={left - 6} y={10 + plot} font-size="11" text-anchor="end" fill={AXIS}>
        0
      </text>
      {days.map((day, i) => {
        const x = left + i * step;
        return (
          <g>
            <title>{`${day.day}: ${day.decisions} decisions, ${day.injected} memories injected`}</title>
            <rect x={x + step * 0.1} y={y(day.injected)} width={step * 0.8} height={10 + plot - y(day.injected)} fill={SOFT} />
            <rect x={x + step * 0.3} y={y(day.decisions)} width={step * 0.4} height={10 + plot - y(day.decisions)} fill={INK} />
            {(i === days.length - 1 || (i % 7 === 0 && i < days.length - 4)) && (
              <text x={x + step / 2} y={height - 6} font-size="10.5" text-anchor="middle" fill={AXIS}>
                {day.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Counts as labelled horizontal bars, largest first. */
export function CountBars(props: { counts: Readonly<Record<string, number>>; label: string; empty: string; max?: number }) {
  const entries = Object.entries(props.counts)
    .sort(([, a], [, b]) => b - a)
    .slice(0, props.max ?? 12);
  if (entries.length === 0) return <EmptyState>{props.empty}</EmptyState>;
  const width = 360;
  const labelWidth = 130;
  const row = 20;
  const top = Math.max(1, ...entries.map(([, count]) => count));
  return (
    <svg viewBox={`0 0 ${width} ${entries.length * row + 4}`} width="100%" role="img" aria-label={props.label}>
      {entries.map(([name, count], i) => {
        const bar = ((width - labelWidth - 60) * count) / top;
        return (
          <g>
            <title>{`${name}: ${formatCount(count)}`}</title>
            <text x={labelWidth - 6} y={i * row + 14} font-size="12" text-anchor="end" fill="#1d232b">
              {oneLine(name, 20)}
            </text>
            <rect x={labelWidth} y={i * row + 4} width={Math.max(1, bar)} height={row - 7} rx="2" fill={INK} />
            <text x={labelWidth + bar + 6} y={i * row + 14} font-size="12" fill="#5f6b7a">
              {formatCount(count)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
