/**
 * A progress bar for long jobs (import, reindex) on standard error: redrawn in place on a
 * terminal, a line per tenth otherwise (when asked for with --progress), silent by default
 * when standard error is not a terminal.
 */
import type { Progress, ProgressListener } from '../../entries/model.js';

/** Jobs smaller than this finish before a bar is worth drawing. */
const MIN_TOTAL = 200;
const BAR = 24;

export function progressBar(options: { enabled?: boolean | undefined; stream?: NodeJS.WriteStream } = {}): ProgressListener {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const enabled = options.enabled ?? tty;
  let lastTenth = -1;
  let lastPhase = '';
  return (progress: Progress) => {
    if (!enabled || (progress.total < MIN_TOTAL && options.enabled !== true)) return;
    const share = progress.total === 0 ? 1 : progress.done / progress.total;
    if (progress.phase !== lastPhase) {
      lastPhase = progress.phase;
      lastTenth = -1;
    }
    if (tty) {
      const filled = Math.round(share * BAR);
      stream.write(
        `\r${progress.phase.padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}] ${Math.floor(share * 100)}% ${progress.done}/${progress.total}`,
      );
      if (progress.done >= progress.total) stream.write('\n');
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    stream.write(`${progress.phase} ${progress.done}/${progress.total} (${tenth * 10}%)\n`);
  };
}
