/**
 * Human-readable output for the CLI: one line per memory in lists, a block per memory in
 * `show`, aligned key/value rows for stats.
 */
import type { Memory, SearchHit } from '../../index.js';

const WIDTH = 100;

/** `text` on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** `01J…  decision/must  global  We chose PostgreSQL for billing` */
export function memoryLine(memory: Memory): string {
  const flags = [memory.archivedAt ? 'archived' : '', memory.supersededBy ? 'superseded' : ''].filter(Boolean);
  const head = `${memory.id}  ${memory.kind}/${memory.tier}  ${memory.scope}${flags.length ? `  [${flags.join(', ')}]` : ''}`;
  return `${head}  ${oneLine(memory.text, Math.max(30, WIDTH - head.length))}`;
}

/**
 * ` 1. 0.82  01J…  decision/must  global  We chose PostgreSQL for billing`: the score first, the
 * number the hits are ordered by (relevance × recency × scope × exact; `--json` has every part).
 */
export function hitLine(hit: SearchHit, rank: number): string {
  const line = `${String(rank).padStart(2)}. ${hit.score.toFixed(2)}  ${memoryLine(hit.memory)}`;
  return hit.via === null ? line : `${line}\n      via ${hit.via}`;
}

/** Every field of a memory, one per row. */
export function memoryBlock(memory: Memory): string {
  const rows: [string, string][] = [
    ['id', memory.id],
    ['text', memory.text],
    ['kind', memory.kind],
    ['tier', memory.tier],
    ['scope', memory.scope],
    ['tenant', memory.tenant],
    ['pinned', String(memory.pinned)],
    ['hard rule', String(memory.hardRule)],
    ['abstract', memory.abstract ?? '—'],
    ['context', memory.context === null ? '—' : oneLine(memory.context, 80)],
    ['key', memory.key ?? '—'],
    ['session', memory.sessionId ?? '—'],
    ['source', `${memory.source} (trust ${memory.trust})`],
    ['tags', memory.tags.length ? memory.tags.join(', ') : '—'],
    ['data', memory.data ? JSON.stringify(memory.data) : '—'],
    ['occurred', memory.occurredAt],
    ['created', memory.createdAt],
    ['updated', memory.updatedAt],
    ['superseded by', memory.supersededBy ?? '—'],
    ['archived', memory.archivedAt ?? '—'],
    ['retrieved', `${memory.retrievalCount} times${memory.lastRetrievedAt ? `, last ${memory.lastRetrievedAt}` : ''}`],
  ];
  return table(rows);
}

/** Two aligned columns. */
export function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n');
}

/** `1.2 MB` */
export function bytes(size: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** `decision 3, note 117` */
export function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length ? entries.map(([name, n]) => `${name} ${n}`).join(', ') : '—';
}
