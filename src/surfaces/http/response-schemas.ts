/**
 * The shapes of successful responses, as zod schemas: the OpenAPI document is generated from
 * them, and the tests parse every real response with them, so the document cannot drift from
 * what the server sends. Nested records the engine may grow (receipts, score signals) are
 * open objects; the memory record is closed.
 */
import { z } from 'zod';

import { KINDS, SOURCES, TIERS } from '../../entries/model.js';
import { SOLUTION_SIMILARITIES, SOLUTION_STATUSES } from '../../entries/tools.js';

const nullableString = z.string().nullable();

/** A memory, as stored. */
export const MemoryRecord = z.strictObject({
  id: z.string(),
  tenant: z.string(),
  scope: z.string(),
  kind: z.enum(KINDS),
  tier: z.enum(TIERS),
  pinned: z.boolean(),
  hardRule: z.boolean(),
  text: z.string(),
  abstract: nullableString,
  context: nullableString,
  key: nullableString,
  sessionId: nullableString,
  source: z.enum(SOURCES),
  trust: z.number(),
  data: z.record(z.string(), z.unknown()).nullable(),
  tags: z.array(z.string()),
  occurredAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  supersededBy: nullableString,
  archivedAt: nullableString,
  lastRetrievedAt: nullableString,
  retrievalCount: z.number(),
});

/** `{ memory }`. */
export const MemoryResponse = z.strictObject({ memory: MemoryRecord });

/** `{ memories }`. */
export const MemoryListResponse = z.strictObject({ memories: z.array(MemoryRecord) });

/** What `DELETE` did: archived it, deleted it for good, or nothing (it was archived already). */
export const ForgetResponse = z.strictObject({ id: z.string(), outcome: z.enum(['archived', 'deleted', 'already_archived']) });

/** What `POST …/restore` did: brought the memory back, or nothing (it was not archived); the memory as it now is. */
export const RestoreResponse = z.strictObject({ memory: MemoryRecord, outcome: z.enum(['restored', 'not_archived']) });

/** One search result: the memory, its score and calibrated relevance, what relevance was calibrated from, and why. */
export const SearchHitRecord = z.strictObject({
  memory: MemoryRecord,
  score: z.number().describe('The number hits are ordered by: relevance × recency × scope × exact (factors)'),
  relevance: z
    .number()
    .describe('Calibrated relevance in [0, 1]: what minRelevance and the recall thresholds are checked against'),
  raw: z
    .number()
    .describe(
      'The score before calibration: in hybrid mode the raw hybrid score with the graph part added, which the calibration curve maps onto relevance (unless signals.fused is set: then relevance is signals.fused.level, lifted toward 1 above 0.6, × exp(−(best − score) / 22)); in the other modes the mode signal itself',
    ),
  storeShift: z
    .number()
    .describe(
      "The store's own calibration of this search, the same for every hit: relevance is the curve's value × 0.6 / (0.6 + storeShift); 0 on a young store, without vectors or outside hybrid mode",
    ),
  signals: z.looseObject({}),
  factors: z.looseObject({}),
  via: nullableString.describe('How the knowledge graph reached the memory ("Caroline → support group"), or null'),
});

export const SearchResponse = z.strictObject({ hits: z.array(SearchHitRecord) });

/** An activation receipt: what recall chose, what it left out, and why. */
export const ReceiptRecord = z.looseObject({
  id: z.string(),
  sessionId: nullableString,
  turn: z.number(),
  path: z.string(),
  createdAt: z.string(),
  query: z.string(),
  selectionMode: z.string(),
  chosen: z.array(z.looseObject({})),
  leftOut: z.array(z.looseObject({})),
  whySummary: z.string(),
  latencyMs: z.looseObject({}),
});

export const ReceiptsResponse = z.strictObject({ receipts: z.array(ReceiptRecord) });

/** One line of the activity log. */
const ActivityRecord = z.strictObject({
  tenant: z.string(),
  at: z.string(),
  action: z.string(),
  key: nullableString,
  memoryId: nullableString,
  summary: z.string(),
});

export const ActivityResponse = z.strictObject({ activity: z.array(ActivityRecord) });

const RecallMessage = z.strictObject({ role: z.literal('system'), content: z.string() });

const ContextSectionRecord = z.looseObject({
  name: z.string(),
  text: z.string(),
  tokens: z.number(),
  memoryIds: z.array(z.string()),
});

/** The session's context: ordered sections and their text. */
export const SessionContextResponse = z.looseObject({
  sessionId: z.string(),
  turn: z.number(),
  text: z.string(),
  sections: z.array(ContextSectionRecord),
  tokens: z.number(),
  budget: z.number(),
  trimmed: z.array(z.looseObject({})),
});

/** The session-start context (handoff, working set), and whether the session existed. */
export const SessionStartResponse = SessionContextResponse.extend({ resumed: z.boolean() });

/** Active recall for one user message: the system message for position 1, or null. */
export const BeforeTurnResponse = z.strictObject({
  message: RecallMessage.nullable(),
  receipt: ReceiptRecord.nullable(),
  memories: z.array(MemoryRecord),
  turn: z.number(),
});

/** After a model step: the reflection nudge when due, with intrusive recall's memories. */
export const AfterStepResponse = z.strictObject({
  nudge: RecallMessage.nullable(),
  receipt: ReceiptRecord.nullable(),
  memories: z.array(MemoryRecord),
  toolOnlyTurns: z.number(),
});

export const SessionEndResponse = z.strictObject({ sessionId: z.string(), ended: z.literal(true) });

/** A recorded solution (seed 004). */
export const SolutionRecord = z.strictObject({
  id: z.string(),
  goal: z.string(),
  approach: z.string(),
  outcome: z.string(),
  confidence: z.number(),
  status: z.enum(SOLUTION_STATUSES),
  scope: z.string(),
  sessionId: nullableString,
  createdAt: z.string(),
});

export const SolutionResponse = z.strictObject({ solution: SolutionRecord });

/** Similar solved tasks, most similar first, and the RECALL block to prepend to a prompt. */
export const SolutionRecallResponse = z.strictObject({
  matches: z.array(
    z.strictObject({
      solution: SolutionRecord,
      similarity: z.number(),
      method: z.enum(SOLUTION_SIMILARITIES),
      signals: z.looseObject({}),
    }),
  ),
  block: nullableString.describe('The ### RECALL … ### END RECALL block(s), or null when nothing is similar enough'),
});

/** The tenant's counts. Database-wide figures (file, size, embedding cache) are left out. */
export const StatsResponse = z.strictObject({
  memories: z.number(),
  live: z.number(),
  archived: z.number(),
  superseded: z.number(),
  byKind: z.record(z.string(), z.number()),
  byTier: z.record(z.string(), z.number()),
  byScope: z.record(z.string(), z.number()),
  vectors: z.number(),
  index: z.looseObject({}).nullable(),
  schemaVersion: z.number(),
  embedder: z.string(),
  embedderLanguages: z
    .strictObject({ reads: z.string(), otherLanguages: z.string() })
    .nullable()
    .describe(
      'The languages the embedder reads, when Engram knows them (the built-in model: English only), and how to search others by meaning',
    ),
  graph: z.strictObject({
    entities: z.number(),
    relations: z.number().describe('Relations that still hold'),
    invalidatedRelations: z.number().describe('Relations ended by a superseded or forgotten memory'),
    mentions: z.number(),
    extractionFailures: z
      .number()
      .describe('Memories whose graph extraction failed: stored and searchable, missing from the graph until `engram reindex`'),
  }),
  calibration: z
    .looseObject({
      active: z.boolean(),
      sampled: z.number(),
      sampleSize: z.number(),
      weight: z.number(),
      young: z.boolean(),
    })
    .describe(
      "Per-store calibration: how many memories, spread evenly over the store, each search is scored against, the shift's weight from the store's size (young below 1), the percentile, reference, alpha and pivot (relevance × pivot / (pivot + shift)), the fixed curve, and the fused order's spread and level lift",
    ),
  internal: z
    .strictObject({ live: z.number(), counted: z.boolean() })
    .describe(
      "Engram's internal records (working sets, handoff notes, scratchpads): how many are live, and whether the counts include them (`?internal=true`)",
    ),
});

/** A knowledge-graph entity, in the MCP reference memory server's shape. */
export const GraphEntityRecord = z.strictObject({
  name: z.string(),
  entityType: z.string(),
  observations: z.array(z.string()),
});

/** A relation between two entities, by their names. */
export const GraphRelationRecord = z.strictObject({ from: z.string(), to: z.string(), relationType: z.string() });

/** Entities and the relations touching them (`search`, `open`). */
export const GraphViewResponse = z.strictObject({
  entities: z.array(GraphEntityRecord),
  relations: z.array(GraphRelationRecord),
});

/** One page of the graph, with the total and where the next page starts (null on the last one). */
export const GraphPageResponse = GraphViewResponse.extend({
  totalEntities: z.number(),
  nextOffset: z.number().nullable(),
});

/** The entities that were new. */
export const GraphEntitiesResponse = z.strictObject({ entities: z.array(GraphEntityRecord) });

/** The relations that were new. */
export const GraphRelationsResponse = z.strictObject({ relations: z.array(GraphRelationRecord) });

/** Per entity, the observations that were new. */
export const GraphObservationsResponse = z.strictObject({
  results: z.array(z.strictObject({ entityName: z.string(), addedObservations: z.array(z.string()) })),
});

/** A graph deletion: what was not in the graph is ignored, as in the reference server. */
export const GraphDeleteResponse = z.strictObject({ success: z.literal(true), message: z.string() });

/** What deleting relations or observations answers: also how many were removed (0: none was there). */
export const GraphCountedDeleteResponse = GraphDeleteResponse.extend({ removed: z.number().int().nonnegative() });

/** What `delete_entities` answers: also the names deleted (as stored) and those not in the graph. */
export const GraphEntityDeleteResponse = GraphDeleteResponse.extend({
  deleted: z.array(z.string()),
  notFound: z.array(z.string()),
});

export const HealthResponse = z.strictObject({ status: z.literal('ok'), version: z.string() });

/** Every error: `{ error: { code, message } }`. */
export const ErrorResponse = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string() }),
});
