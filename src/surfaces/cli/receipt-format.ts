/**
 * One screen per activation decision for `engram receipts`: the header, the summary, what was
 * injected and why, the best of what was left out and why, and the counts.
 */
import type { ReceiptEntry } from '../../entries/model.js';
import type { Receipt } from '../../index.js';
import { oneLine } from './format.js';

/** Each receipt outcome in words (the inspector's receipt screen uses them too). */
export const OUTCOME_WORDS: Readonly<Record<ReceiptEntry['outcome'], string>> = {
  pinned: 'pinned',
  quota: 'quota',
  spill: 'spilled in',
  suppressed_by_repeat: 'suppressed by repeat',
  cooled_down: 'cooled down',
  backbone_duplicate: 'backbone duplicate',
  near_duplicate: 'near-duplicate',
  below_threshold: 'below threshold',
  budget_full: 'budget full',
};

/** The best left-out candidates listed (the inspector folds the rest away). */
export const LEFT_OUT_SHOWN = 8;

/** The receipt as a block of text, about one terminal screen. */
export function receiptScreen(receipt: Receipt): string {
  const { budget, latencyMs } = receipt;
  const lines = [
    `receipt ${receipt.id}  ${receipt.path} recall  session ${receipt.sessionId ?? '—'}  turn ${receipt.turn}  ${receipt.createdAt}`,
    `query     ${oneLine(receipt.query, 90)}`,
    `mode      ${receipt.selectionMode}, budget ${budget.maxItems} (hot lane ${budget.hotLane}), threshold ${budget.threshold}, ` +
      `${latencyMs.total.toFixed(1)} ms (embed ${latencyMs.embed.toFixed(1)}, search ${latencyMs.search.toFixed(1)})`,
    `why       ${receipt.whySummary}`,
    '',
    'injected',
    ...(receipt.chosen.length ? receipt.chosen.map((entry) => entryLine(entry, receipt.whyTheseIds[entry.id])) : ['  nothing']),
  ];
  const shown = receipt.leftOut.slice(0, LEFT_OUT_SHOWN);
  if (shown.length > 0) {
    lines.push(
      '',
      `left out (best ${shown.length} of ${receipt.leftOut.length} listed)`,
      ...shown.map((entry) => entryLine(entry)),
    );
  }
  return lines.join('\n');
}

function entryLine(entry: ReceiptEntry, why?: string): string {
  const f = entry.factors;
  const numbers = f
    ? `score ${f.score.toFixed(2)} ${f.raw === undefined ? '' : `raw ${f.raw.toFixed(2)} `}${f.fused === undefined ? '' : `fused ${f.fused.score.toFixed(1)}/${f.fused.best.toFixed(1)} level ${f.fused.level.toFixed(2)} `}${f.storeShift ? `shift ${f.storeShift.toFixed(2)} ` : ''}rel ${f.relevance.toFixed(2)} cool ${f.cooldown.toFixed(2)} rep ${f.repeat.toFixed(2)} ` +
      `imp ${f.importance.toFixed(2)} nov ${f.novelty.toFixed(2)} exact ${f.exact.toFixed(2)}`
    : '';
  const head = `  ${(entry.lane ?? '-').padEnd(11)} ${entry.tier.padEnd(7)} ${OUTCOME_WORDS[entry.outcome].padEnd(20)} ${entry.id}`;
  // A chosen memory's reason already says the graph's path; a left-out one shows it here.
  const via = entry.via && !why ? `— via ${entry.via}` : '';
  const detail = [numbers, why ? `— ${why}` : '', via].filter(Boolean).join(' ');
  return `${head}\n      ${oneLine(entry.preview, 90)}${detail ? `\n      ${detail}` : ''}`;
}
