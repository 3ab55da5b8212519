/** Small text and number formats shared by the inspector's pages (and, for two, with the CLI). */

// The same one-line cut and byte sizes as the CLI's output, so both read alike.
export { bytes as formatBytes, oneLine } from '../cli/format.js';

/** A score or factor with two decimals; `—` for none. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(2);
}

/** `2026-01-31 09:00:00` (UTC) from an ISO timestamp; `—` for none. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

/** `12,345` */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
