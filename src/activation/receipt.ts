/**
 * The receipt of one activation decision (seed 002): the selection mode, the quota summary,
 * every candidate that mattered with its lane, tier, outcome and score factors, and a one-line
 * summary, so an operator can tell from the receipt alone why each memory was or was not injected.
 */
import type { Memory } from '../model/memory.js';
import type { Outcome, Receipt, ReceiptEntry } from '../model/receipt.js';
import type { WorkingSet, WorkingSetRole } from '../model/working-set.js';
import type { ActivationRequest } from './activation-request.js';
import type { Classified } from './classify.js';
import type { ScoredCandidate } from './score.js';
import type { Pick, Selection } from './select.js';

const PREVIEW_CHARS = 80;
const QUERY_CHARS = 200;
/** Left-out candidates listed at most (the best first); counts stay complete. */
const MAX_LEFT_OUT = 30;
const BELOW_THRESHOLD_SHOWN = 5;

export interface ReceiptParts {
  request: ActivationRequest;
  workingSet: WorkingSet | null;
  workingSetMemoryId: string | null;
  pinned: readonly Memory[];
  classified: Classified;
  selection: Selection;
  hot: readonly ScoredCandidate[];
  latencyMs: Receipt['latencyMs'];
}

export function buildReceipt(parts: ReceiptParts): Receipt {
  const { request, selection, classified } = parts;
  const { settings } = request;
  const picks = new Map(selection.picks.map((pick) => [pick.id, pick]));
  const chosen = chosenEntries(parts, picks);
  const outcomes = leftOutOutcomes(parts, picks);
  const leftOut = leftOutEntries(parts, outcomes);
  // Counted over every candidate left out, not only the ones listed.
  const ids = (outcome: Outcome) => outcomes.filter(([, o]) => o === outcome).map(([c]) => c.memory.id);
  const receipt: Receipt = {
    id: request.receiptId,
    tenant: request.tenant,
    sessionId: request.sessionId,
    turn: request.turn,
    path: request.path,
    createdAt: request.now.toISOString(),
    query: request.query.slice(0, QUERY_CHARS),
    selectionMode: settings.policy,
    budget: { maxItems: settings.maxItems, hotLane: settings.hotLane, threshold: settings.threshold },
    quota: { ...settings.quotas, ...selection.quota },
    workingSet: {
      enabled: settings.workingSet,
      memoryId: parts.workingSetMemoryId,
      itemIds: parts.workingSet?.items.map((item) => item.memory.id) ?? [],
    },
    chosen,
    leftOut,
    suppressedByRepeat: ids('suppressed_by_repeat'),
    pinnedByWorkingSet: parts.workingSet?.items.map((item) => item.memory.id) ?? [],
    excludedAsBackboneDuplicate: classified.backboneDuplicates.map((c) => c.memory.id),
    cooledDown: classified.cooledDown.map((c) => c.memory.id),
    nearDuplicates: selection.nearDuplicates,
    belowThreshold: classified.belowThreshold.length,
    candidates:
      classified.eligible.length +
      classified.belowThreshold.length +
      classified.cooledDown.length +
      classified.backboneDuplicates.length,
    whySummary: '',
    whyTheseIds: whyTheseIds(chosen, parts),
    latencyMs: parts.latencyMs,
  };
  receipt.whySummary = summarize(receipt);
  return receipt;
}

function entry(
  memory: Memory,
  outcome: Outcome,
  lane: ReceiptEntry['lane'],
  candidate?: ScoredCandidate,
  pick?: Pick,
): ReceiptEntry {
  return {
    id: memory.id,
    kind: memory.kind,
    tier: memory.tier,
    outcome,
    lane,
    preview: preview(memory.text),
    factors: candidate?.factors ?? null,
    diversityPenalty: pick?.diversityPenalty ?? 0,
    via: candidate?.via ?? null,
  };
}

function chosenEntries(parts: ReceiptParts, picks: ReadonlyMap<string, Pick>): ReceiptEntry[] {
  return [
    ...(parts.workingSet?.items.map((item) => entry(item.memory, 'pinned', 'working_set')) ?? []),
    ...parts.pinned.map((memory) => entry(memory, 'pinned', 'pinned')),
    ...parts.hot.map((c) => {
      const pick = picks.get(c.memory.id) as Pick;
      return entry(c.memory, pick.reason, 'hot', c, pick);
    }),
  ];
}

/** Every candidate left out, with why, best first (the receipt lists the first of them). */
function leftOutOutcomes(parts: ReceiptParts, picks: ReadonlyMap<string, Pick>): [ScoredCandidate, Outcome][] {
  const { classified, selection, hot } = parts;
  const nearDuplicates = new Set(selection.nearDuplicates);
  const lowestChosen = hot.reduce((min, c) => Math.min(min, c.factors.score), Infinity);
  const outcomeOf = (c: ScoredCandidate): Outcome => {
    if (nearDuplicates.has(c.memory.id)) return 'near_duplicate';
    // A ranking penalty: reported when the memory would have got in without it.
    if (c.factors.repeat < 1 && c.unpenalizedScore > lowestChosen) return 'suppressed_by_repeat';
    return 'budget_full';
  };
  const listed: [ScoredCandidate, Outcome][] = [
    ...classified.eligible.filter((c) => !picks.has(c.memory.id)).map((c): [ScoredCandidate, Outcome] => [c, outcomeOf(c)]),
    ...classified.backboneDuplicates.map((c): [ScoredCandidate, Outcome] => [c, 'backbone_duplicate']),
    ...classified.cooledDown.map((c): [ScoredCandidate, Outcome] => [c, 'cooled_down']),
  ];
  return listed.sort((a, b) => b[0].factors.score - a[0].factors.score);
}

function leftOutEntries(parts: ReceiptParts, outcomes: readonly [ScoredCandidate, Outcome][]): ReceiptEntry[] {
  const below = [...parts.classified.belowThreshold]
    .sort((a, b) => b.factors.relevance - a.factors.relevance)
    .slice(0, BELOW_THRESHOLD_SHOWN)
    .map((c): [ScoredCandidate, Outcome] => [c, 'below_threshold']);
  // Listed by score, the number every list is ordered by: the ones nearest the threshold among them.
  return [...outcomes.slice(0, MAX_LEFT_OUT), ...below]
    .sort((a, b) => b[0].factors.score - a[0].factors.score)
    .map(([c, outcome]) => entry(c.memory, outcome, null, c));
}

const ROLE_WORDS: Readonly<Record<WorkingSetRole, string>> = {
  rule: 'hard rule',
  pinned: 'pinned memory',
  constraint: 'durable constraint',
  preference: 'durable preference',
  decision: 'recent durable decision',
  goal: 'current goal',
};

/** One reason per chosen memory; a memory in two lanes (dedupe_backbone off) gets both. */
function whyTheseIds(chosen: readonly ReceiptEntry[], parts: ReceiptParts): Record<string, string> {
  const why: Record<string, string> = {};
  for (const entry of chosen) {
    const reason = whyChosen(entry, parts);
    why[entry.id] = why[entry.id] ? `${why[entry.id]}; and in the hot lane: ${reason}` : reason;
  }
  return why;
}

function whyChosen(chosen: ReceiptEntry, parts: ReceiptParts): string {
  if (chosen.lane === 'working_set') {
    const role = parts.workingSet?.items.find((item) => item.memory.id === chosen.id)?.role ?? 'pinned';
    return `pinned by the working set (${ROLE_WORDS[role]})`;
  }
  if (chosen.lane === 'pinned') return 'pinned: a hard rule or pinned memory, injected every turn';
  const f = chosen.factors;
  const score = f ? `score ${f.score.toFixed(3)} (relevance ${f.relevance.toFixed(3)})` : '';
  const policy = parts.request.settings.policy;
  const how =
    policy === 'top_k'
      ? 'top-k'
      : chosen.outcome === 'spill'
        ? `spilled in: best remaining ${chosen.tier} after the quotas`
        : policy === 'tier_first_v1'
          ? 'tier first: must fills the budget'
          : quotaWords(chosen.tier);
  const notes = [
    f && f.repeat === 1 && parts.hot.find((c) => c.memory.id === chosen.id)?.repeated
      ? 'repeated, exempt as an exact hit or rule'
      : '',
    f && f.repeat < 1 ? `repeated within the window (×${f.repeat}) but still the best left` : '',
    chosen.diversityPenalty > 0 ? `diversity −${chosen.diversityPenalty.toFixed(3)}` : '',
    chosen.via ? `via ${chosen.via}` : '',
  ].filter(Boolean);
  return [how, score, ...notes].filter(Boolean).join('; ');
}

function quotaWords(tier: string): string {
  if (tier === 'nice') return 'quota: nice floor';
  if (tier === 'must') return 'quota: within the must cap';
  return 'quota: the unknown-tier wildcard';
}

function summarize(receipt: Receipt): string {
  const hot = receipt.chosen.filter((e) => e.lane === 'hot');
  const { selected, spilled, wildcardUsed, mustMax, niceMin } = receipt.quota;
  const parts = [
    `${receipt.selectionMode}: ${hot.length} of ${receipt.candidates} candidates injected`,
    receipt.workingSet.itemIds.length > 0 ? `working set pinned (${plural(receipt.workingSet.itemIds.length, 'item')})` : '',
    receipt.chosen.some((e) => e.lane === 'pinned')
      ? `${plural(receipt.chosen.filter((e) => e.lane === 'pinned').length, 'hard rule')} pinned`
      : '',
    receipt.selectionMode === 'top_k'
      ? ''
      : `must ${selected.must} (cap ${mustMax}), nice ${selected.nice} (floor ${niceMin}), unknown ${selected.unknown} (wildcard ${wildcardUsed}), ${spilled} spilled`,
    count(receipt.suppressedByRepeat.length, 'suppressed by repeat'),
    count(receipt.cooledDown.length, 'cooled down'),
    count(receipt.excludedAsBackboneDuplicate.length, 'backbone duplicates'),
    count(receipt.nearDuplicates.length, 'near-duplicates'),
    `${receipt.belowThreshold} below threshold ${receipt.budget.threshold}`,
  ];
  return parts.filter(Boolean).join('; ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function count(n: number, words: string): string {
  return n > 0 ? `${n} ${words}` : '';
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
