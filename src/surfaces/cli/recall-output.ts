/**
 * What `engram recall` prints for one active recall, wherever it ran (in the command's own
 * process or in the resident one).
 */
import type { BeforeTurn } from '../../index.js';

/** The text for `result`: the block to inject and a line on the decision, or the whole result as JSON. */
export function recallOutput(result: BeforeTurn, options: { session: string; json: boolean }): string {
  if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
  if (result.receipt === null) return 'active recall did not run: it is disabled, or no memory has an embedding yet\n';
  return (
    `${result.message?.content ?? 'nothing to inject'}\n\nturn ${result.turn}: ${result.receipt.whySummary}\n` +
    `details: engram receipts --session ${options.session} --turn ${result.turn}\n`
  );
}
