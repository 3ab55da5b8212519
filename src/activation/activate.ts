/**
 * One activation decision (seed 002, with seed 001's cooldown and MMR): which memories enter
 * this turn. The working set takes the pinned slot; the hot lane is filled from scored
 * candidates by the selection policy; everything left out is classified; the receipt says why.
 * Reads go through the Store interface; nothing is written here (the caller records the result).
 */
import { performance } from 'node:perf_hooks';

import { type PendingEmbedding, startEmbedding } from '../embedding/pending-embedding.js';
import type { Memory, Tier } from '../model/memory.js';
import type { Receipt } from '../model/receipt.js';
import type { WorkingSet } from '../model/working-set.js';
import { stemSet } from '../retrieval/coverage.js';
import { memorySimilarity } from '../retrieval/similarity.js';
import type { Injection } from '../store/store.js';
import type { ActivationRequest, ActivationSettings } from './activation-request.js';
import { type Backbone, loadBackbone } from './backbone.js';
import { searchCandidates } from './candidates.js';
import { type Classified, classifyCandidates } from './classify.js';
import { buildReceipt } from './receipt.js';
import { scoreCandidate, type ScoredCandidate } from './score.js';
import { selectCandidates, type Selection } from './select.js';

export type { ActivationRequest, ActivationSettings } from './activation-request.js';

export interface Activation {
  receipt: Receipt;
  workingSet: WorkingSet | null;
  /** Hard rules and pinned memories injected without a working set. */
  pinned: Memory[];
  /** The hot lane, in injection order (best first). */
  hot: ScoredCandidate[];
  injected: Injection[];
  /** Memories whose retrieval time is stamped (the hot lane). */
  retrieved: string[];
}

/** Candidates drawn across tiers per hot-lane slot, and at least this many. */
const POOL_PER_SLOT = 10;
const MIN_POOL = 50;

/** How many relevant candidates of each tier the policy could use (tier-only searches top up the rest). */
function wantedPerTier(settings: ActivationSettings): Record<Tier, number> {
  const { hotLane, quotas } = settings;
  switch (settings.policy) {
    case 'tier_quota_v1':
      return {
        must: Math.min(hotLane, quotas.mustMax),
        nice: Math.min(hotLane, quotas.niceMin),
        unknown: Math.min(hotLane, quotas.unknownMax),
      };
    case 'tier_first_v1':
      return { must: hotLane, nice: 0, unknown: 0 };
    case 'top_k':
      return { must: 0, nice: 0, unknown: 0 };
  }
}

/** Similarity at or above which two memories say the same thing. */
export const NEAR_DUPLICATE = 0.9;

export async function activate(request: ActivationRequest): Promise<Activation> {
  // The model embeds the query while the backbone, the recent injections, the graph and the
  // full-text index are read (see pending-embedding.ts); a caller may have started it earlier.
  const embedding = request.embedding ?? (request.embedder ? startEmbedding(request.embedder, request.query) : null);
  const started = embedding?.startedAt ?? performance.now();
  const [backbone, recent] = await Promise.all([
    loadBackbone(request.store, { tenant: request.tenant, scopes: request.scopes, now: request.now, ...request.settings }),
    recentInjections(request),
  ]);
  if (backbone.workingSet === null && request.settings.workingSet) {
    // seed 002: the working set's slot is part of the budget; unused, it goes to the hot lane.
    request = { ...request, settings: { ...request.settings, hotLane: request.settings.hotLaneWithoutWorkingSet } };
  }
  const { scored, embedMs, searchMs } = await scoreCandidates(request, backbone, recent, embedding);
  const { classified, selection, hot } = await fillHotLane(request, backbone, scored);
  const workingSetMemoryId =
    backbone.workingSet && request.persistWorkingSet ? await request.persistWorkingSet(backbone.workingSet) : null;
  const receipt = buildReceipt({
    request,
    workingSet: backbone.workingSet,
    workingSetMemoryId,
    pinned: backbone.pinned,
    classified,
    selection,
    hot,
    latencyMs: { embed: embedMs, search: searchMs, total: performance.now() - started },
  });
  const lane = (memoryId: string, name: Injection['lane']): Injection => ({ memoryId, turn: request.turn, lane: name });
  return {
    receipt,
    workingSet: backbone.workingSet,
    pinned: backbone.pinned,
    hot,
    injected: [
      ...workingSetIdsOf(backbone).map((id) => lane(id, 'working_set')),
      ...backbone.pinned.map((m) => lane(m.id, 'pinned')),
      ...hot.map((c) => lane(c.memory.id, 'hot')),
    ],
    retrieved: hot.map((c) => c.memory.id),
  };
}

/**
 * Draws the candidates and scores each (memories already pinned or excluded left out). The
 * search's time includes waiting for the embedding where it had not answered yet.
 */
async function scoreCandidates(
  request: ActivationRequest,
  backbone: Backbone,
  recent: ReadonlySet<string>,
  embedding: PendingEmbedding | null,
): Promise<{ scored: ScoredCandidate[]; embedMs: number; searchMs: number }> {
  const { settings } = request;
  const searchStarted = performance.now();
  const hits = await searchCandidates({
    store: request.store,
    embedder: request.embedder,
    tenant: request.tenant,
    scopes: request.scopes,
    query: request.query,
    queryVector: embedding?.vector ?? null,
    limit: Math.max(settings.hotLane * POOL_PER_SLOT, MIN_POOL),
    wanted: wantedPerTier(settings),
    threshold: settings.threshold,
    now: request.now,
    retrieval: request.retrieval,
  });
  const searchMs = performance.now() - searchStarted;
  const pinned = new Set(backbone.pinned.map((m) => m.id));
  const context = {
    now: request.now,
    cooldown: settings.cooldown,
    recentlyInjected: recent,
    repeatPenalty: settings.repeatPenalty,
    queryWordCount: stemSet(request.query).size,
  };
  const scored = hits
    .filter((hit) => !request.excludeIds?.has(hit.memory.id) && !pinned.has(hit.memory.id))
    .map((hit) => scoreCandidate(hit, context));
  return { scored, embedMs: embedding?.elapsedMs() ?? 0, searchMs };
}

/** Classifies the scored candidates and fills the hot lane by the selection policy, best first. */
async function fillHotLane(
  request: ActivationRequest,
  backbone: Backbone,
  scored: readonly ScoredCandidate[],
): Promise<{ classified: Classified; selection: Selection; hot: ScoredCandidate[] }> {
  const { settings, store, tenant } = request;
  const workingSetIds = workingSetIdsOf(backbone);
  const vectors = request.embedder
    ? await store.getVectors(tenant, [...scored.map((c) => c.memory.id), ...workingSetIds])
    : new Map<string, Float32Array>();
  const memories = [...scored.map((c) => c.memory), ...(backbone.workingSet?.items.map((i) => i.memory) ?? [])];
  const similarity = memorySimilarity(new Map(memories.map((m) => [m.id, m.text])), vectors);
  const classified = classifyCandidates({
    scored,
    threshold: settings.threshold,
    backbone: settings.dedupeBackbone ? workingSetIds : [],
    similarity,
    nearDuplicate: NEAR_DUPLICATE,
  });
  const selection = selectCandidates({
    policy: settings.policy,
    candidates: classified.eligible.map((c) => ({ id: c.memory.id, tier: c.memory.tier, score: c.factors.score })),
    budget: settings.hotLane,
    quotas: settings.quotas,
    lambda: settings.mmrLambda,
    similarity,
    nearDuplicate: NEAR_DUPLICATE,
  });
  const byId = new Map(scored.map((c) => [c.memory.id, c]));
  const hot = selection.picks
    .map((pick) => byId.get(pick.id) as ScoredCandidate)
    .sort((a, b) => b.factors.score - a.factors.score);
  return { classified, selection, hot };
}

function workingSetIdsOf(backbone: Backbone): string[] {
  return backbone.workingSet?.items.map((item) => item.memory.id) ?? [];
}

/** Memories injected in the hot lane of this session within the repeat window. */
async function recentInjections(request: ActivationRequest): Promise<Set<string>> {
  const window = request.settings.repeatWindowTurns;
  if (request.sessionId === null || window === 0) return new Set();
  const injections = await request.store.listInjections(request.tenant, request.sessionId, request.turn - window);
  // Active recall runs first in its turn; a nudge also counts what this turn already showed.
  const current = request.path === 'intrusive' ? request.turn : request.turn - 1;
  return new Set(injections.filter((i) => i.lane === 'hot' && i.turn <= current).map((i) => i.memoryId));
}
