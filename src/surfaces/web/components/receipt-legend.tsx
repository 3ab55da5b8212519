/**
 * The receipt table's columns in words: each short header's full name and meaning, shown as
 * the header's tooltip and, once per page, as a legend under the receipts. A column without an
 * entry here cannot be drawn (`ColumnHead` takes only these names).
 */

/** Every column of a receipt's table: its full name and what it means. */
export const RECEIPT_COLUMNS = {
  Lane: {
    name: 'Lane',
    meaning:
      'where an injected memory went: working_set (carried by the working set, injected every turn), pinned (a hard rule or pinned memory, when there is no working set) or hot (recalled for this query). A dash for memories left out.',
  },
  Tier: { name: 'Tier', meaning: 'the memory’s retention tier: must (must remember), nice (nice to have) or unknown.' },
  Outcome: {
    name: 'Outcome',
    meaning:
      'what happened to it: pinned, quota (chosen within its tier’s quota), spilled in (a free slot after the quotas), or why it was left out (below threshold, suppressed by repeat, cooled down, near-duplicate, backbone duplicate, budget full).',
  },
  Memory: {
    name: 'Memory',
    meaning: 'its id, kind and the start of its text, with the reason it was chosen or the graph path that reached it.',
  },
  Score: {
    name: 'Activation score',
    meaning:
      'relevance × cooldown × scope × recency × importance × novelty × repeat × exact: the hot lane is filled best score first.',
  },
  Raw: {
    name: 'Raw score',
    meaning:
      'the hybrid search score (words, meaning, graph) before calibration; relevance is read from it on the calibration curve.',
  },
  Shift: {
    name: 'Store shift',
    meaning: 'what this store’s own calibration took off the relevance for this query (0 on a young store).',
  },
  Rel: {
    name: 'Relevance',
    meaning: 'how well the memory matches the query, calibrated to 0–1; relevance × cooldown must reach the threshold.',
  },
  Cool: {
    name: 'Cooldown',
    meaning: 'the decay on the time since the memory was last retrieved (seed 001): 1 when it is not cooling down.',
  },
  Scope: {
    name: 'Scope match',
    meaning: '1 in the most specific scope the recall sees, 5% less per step down its list of scopes.',
  },
  Rec: { name: 'Recency', meaning: 'at most 5% off for older memories, half of that after a year (by default).' },
  Imp: { name: 'Importance', meaning: 'the tier as a prior: must 1, nice 0.9, unknown 0.8.' },
  Nov: { name: 'Novelty', meaning: '1 for a memory never retrieved, falling towards 0.9 as its retrievals add up.' },
  Rep: {
    name: 'Repeat penalty',
    meaning:
      'the repeat penalty (0.35 by default) when the memory was injected within the session’s repeat window (6 turns by default), else 1; hard rules, pinned memories and exact hits are exempt.',
  },
  Exact: {
    name: 'Exact match',
    meaning: '×1.15 (by default) when the memory holds the query’s quoted phrase, or all its words in order; else 1.',
  },
  MMR: {
    name: 'Diversity (MMR)',
    meaning: 'what its similarity to the memories picked before it cost a chosen memory; a dash when nothing.',
  },
} as const satisfies Record<string, { name: string; meaning: string }>;

/** A column of a receipt's table. */
export type ReceiptColumn = keyof typeof RECEIPT_COLUMNS;

/** A column's header: the short name, with its full name and meaning as the tooltip. */
export function ColumnHead(props: { column: ReceiptColumn; num?: boolean }) {
  const { name, meaning } = RECEIPT_COLUMNS[props.column];
  return (
    <th class={props.num ? 'num' : undefined} title={`${name}: ${meaning}`}>
      {props.column}
    </th>
  );
}

/** The legend of every column, under the receipts of a page. */
export function ReceiptLegend() {
  return (
    <section class="legend" id="receipt-columns">
      <h2>What the columns mean</h2>
      <p class="muted">
        Each number is one factor of a candidate’s score; the score is their product. A dash: the factor does not apply
        (working-set items are pinned without a score).
      </p>
      <dl class="kv">
        {(Object.keys(RECEIPT_COLUMNS) as ReceiptColumn[]).map((column) => (
          <>
            <dt>{column}</dt>
            <dd>
              <strong>{RECEIPT_COLUMNS[column].name}</strong>: {RECEIPT_COLUMNS[column].meaning}
            </dd>
          </>
        ))}
      </dl>
    </section>
  );
}
