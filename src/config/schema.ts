/**
 * The configuration schema: every key of `engram.toml`, its type and its default. Defaults
 * come from the seeds (see DESIGN.md, "Configuration"); a key exists here from the first
 * release even where its feature lands later, so a config file never breaks on upgrade.
 * Objects are strict: an unknown key is an error, not a silent no-op.
 */
import { z } from 'zod';

import { COOLDOWN_DECAYS, EMBEDDING_PROVIDERS, SOLUTION_SIMILARITIES } from '../model/choices.js';
import { RECALL_PATHS, SELECTION_MODES } from '../model/receipt.js';
import { FUSIONS } from '../model/search-request.js';
import { DEFAULT_STORE_PATH } from './locate.js';

// Messages name no key: the loader prefixes the full key path and the file.
const unit = () =>
  z.number({ error: 'must be a number between 0 and 1' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const count = () => z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must not be negative');
const positive = () => z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1');
const flag = () => z.boolean({ error: 'must be true or false' });
const text = () => z.string({ error: 'must be a string' }).min(1, 'must not be empty');
/** One of `choices`, with a message that lists them. */
const oneOf = <const T extends readonly [string, ...string[]]>(choices: T) =>
  z.enum(choices, { error: `must be one of: ${choices.join(', ')}` });

/** `[store]`: where memories live. */
const StoreSchema = z.strictObject({
  /** @default ".engram/engram.db" (relative to the working directory) */
  path: text().default(DEFAULT_STORE_PATH),
  /** The tenant used when a call names none. @default "default" */
  tenant: text().default('default'),
  /**
   * A PostgreSQL database to use instead of the file at `path` (`postgres://user:password@host/db`,
   * TLS through `?sslmode=require`); empty keeps the SQLite file. `--store` / ENGRAM_STORE_URL take
   * precedence. @default ""
   */
  url: z
    .string({ error: 'must be a string' })
    .regex(/^$|^postgres(ql)?:\/\//i, 'must be empty (the SQLite file at path) or a postgres:// URL')
    .default(''),
  /** Connections each process holds to the PostgreSQL database at most. @default 10 */
  pool_size: positive().default(10),
  /**
   * MiB of float vectors a SQLite store holds in memory for exact re-scores (a tenant's whole set
   * or none of it; 10k vectors of 512 dimensions take 20); 0 reads each from the file. @default 32
   */
  float_vectors_mb: count().default(32),
  /** MiB of the SQLite file read through memory-mapped I/O; 0 reads through system calls only. @default 1024 */
  mmap_mb: count().default(1024),
});

/** `[embedding]`: the model that turns text into vectors. */
const EmbeddingSchema = z.strictObject({
  /** `local` (Universal Sentence Encoder Lite, offline), `openai` (any OpenAI-compatible server) or `none` (lexical only). @default "local" */
  provider: oneOf(EMBEDDING_PROVIDERS).default('local'),
  /** Model name sent to an OpenAI-compatible server. @default "text-embedding-3-small" */
  model: text().default('text-embedding-3-small'),
  /** Base URL of the OpenAI-compatible API (Ollama: http://127.0.0.1:11434/v1). @default "https://api.openai.com/v1" */
  base_url: z.url({ error: 'must be a URL such as http://127.0.0.1:11434/v1' }).default('https://api.openai.com/v1'),
  /** Name of the environment variable holding the API key (never the key itself). @default "OPENAI_API_KEY" */
  api_key_env: text().default('OPENAI_API_KEY'),
  /** Texts per request or per model call. @default 32 */
  batch_size: positive().max(2048).default(32),
  /** Per-request timeout for remote embedders, in milliseconds. @default 30000 */
  timeout_ms: positive().default(30_000),
  /**
   * Worker threads for the local model: "auto" (one per core), a number, or 0 to embed in the
   * calling thread. Each loads its own copy of the model (~100 MB). @default "auto"
   */
  workers: z
    .union([z.literal('auto'), z.number().int().min(0)], {
      error: 'must be "auto" or a whole number of workers (0 embeds in the calling thread)',
    })
    .default('auto'),
});

/** `[memory.recall]` (seed 000): active recall, once per user message. */
const RecallSchema = z.strictObject({
  enabled: flag().default(true),
  /** Minimum calibrated relevance. @default 0.6 */
  threshold: unit().default(0.6),
  /** Hot-lane memories injected at most. @default 5 */
  limit: positive().default(5),
});

/** `[memory.intrusive]` (seed 001): recall attached to reflection nudges. */
const IntrusiveSchema = z.strictObject({
  enabled: flag().default(true),
  /** A nudge after this many tool-only turns. @default 5 */
  every_tool_turns: positive().default(5),
  /** Recent assistant messages embedded as the query. @default 3 */
  window_messages: positive().default(3),
  /** @default 0.5 */
  threshold: unit().default(0.5),
  /** @default 3 */
  max_items: positive().default(3),
});

/** `[memory.cooldown]` (seed 001): refractory period after a memory is retrieved. */
const CooldownSchema = z.strictObject({
  /** @default "exponential" */
  decay: oneOf(COOLDOWN_DECAYS).default('exponential'),
  /** The window (binary, linear) or tau (exponential), in seconds. @default 1800 */
  seconds: positive().default(1800),
  /**
   * Which recalls the cooldown applies to: `explicit` (the agent's search_memory tool), `active`
   * (before each user message) and `intrusive` (reflection nudges). Active recall is left out by
   * default: repeat suppression already handles it per session, and a per-memory cooldown also
   * hid memories from new sessions (LoCoMo replay: evidence recall 0.557 without, 0.372 with).
   * @default ["explicit", "intrusive"]
   */
  paths: z
    .array(z.enum(RECALL_PATHS, { error: `must list only: ${RECALL_PATHS.join(', ')}` }), {
      error: 'must be a list such as ["explicit", "intrusive"]',
    })
    .default(['explicit', 'intrusive']),
});

const MemorySchema = z.strictObject({
  recall: RecallSchema.prefault({}),
  intrusive: IntrusiveSchema.prefault({}),
  cooldown: CooldownSchema.prefault({}),
});

/** `[auto_recall.quotas]` (seed 002). */
const QuotasSchema = z.strictObject({
  /** A cap, not a target. @default 2 */
  must_max: count().default(2),
  /** A floor when relevant nice memories exist. @default 2 */
  nice_min: count().default(2),
  /** The wildcard. @default 1 */
  unknown_max: count().default(1),
});

/** `[auto_recall]` (seed 002): which memories enter a turn. */
const AutoRecallSchema = z.strictObject({
  /** @default "tier_quota_v1" */
  selection_mode: oneOf(SELECTION_MODES).default('tier_quota_v1'),
  /** Whole budget: one pinned working-set slot plus the hot lane. @default 6 */
  max_items: positive().default(6),
  /** @default 6 */
  repeat_window_turns: count().default(6),
  /** @default 0.35 */
  repeat_penalty: unit().default(0.35),
  /** @default true */
  dedupe_backbone: flag().default(true),
  /** MMR trade-off between score (1) and diversity (0) when filling the hot lane. @default 0.7 */
  mmr_lambda: unit().default(0.7),
  quotas: QuotasSchema.prefault({}),
});

/** `[working_set]` (seed 002): the backbone lane. */
const WorkingSetSchema = z.strictObject({
  enabled: flag().default(true),
  persist: flag().default(true),
});

/** `[solutions]` (seed 004): solved-task recall. */
const SolutionsSchema = z.strictObject({
  /** @default 0.3 */
  threshold: unit().default(0.3),
  /** @default "hybrid" */
  similarity: oneOf(SOLUTION_SIMILARITIES).default('hybrid'),
});

/** `[retrieval]`: how search finds and ranks candidates. */
const RetrievalSchema = z.strictObject({
  /** `weighted` (calibrated word coverage + meaning) or `rrf` (reciprocal-rank fusion). @default "weighted" */
  fusion: oneOf(FUSIONS).default('weighted'),
  /** Weight of word coverage against meaning in weighted fusion. @default 0.5 */
  lexical_weight: unit().default(0.5),
  /** Candidates drawn from each index before ranking. @default 50 */
  candidates: positive().max(4096, 'must be at most 4096').default(50),
  /** How much an old memory can lose to a new one, in [0, 1]. @default 0.05 */
  recency_weight: unit().default(0.05),
  /** Age at which half of recency_weight is lost, in days. @default 365 */
  recency_half_life_days: z.number({ error: 'must be a number' }).positive('must be more than 0').default(365),
  /** Bonus for a memory holding the query's phrase (0.15 = ×1.15). @default 0.15 */
  exact_boost: unit().default(0.15),
});

/** `[context]`: what `session.context()` assembles for the model. */
const ContextSchema = z.strictObject({
  /** Token budget of the assembled sections (estimated as characters ÷ 4); the least important are trimmed first. @default 2000 */
  max_tokens: positive().default(2000),
});

/** `[graph]` (seed 000): the knowledge graph of people, places, organisations, things and dates. */
const GraphSchema = z.strictObject({
  /**
   * Extract entities, the speaker of a turn and dates from every memory written (offline, no
   * embedder needed); `engram reindex` extracts for memories stored before. @default true
   */
  extract: flag().default(true),
  /**
   * Graph-aware recall: searches and recall whose query names a known entity also follow the
   * graph (the memories about it, one hop further, dated memories for "when" questions, the
   * turns beside the best hits), with weighted fusion (`rrf` never follows it). A query that names
   * no entity ranks the same either way. @default true
   */
  recall: flag().default(true),
});

/**
 * `[daemon]`: the resident process that one-shot callers (the Claude Code hook) hand their work
 * to, so they do not load the embedding model each time.
 */
const DaemonSchema = z.strictObject({
  /** Hooks hand their work to a resident Engram process for the database, started on first use. @default true */
  enabled: flag().default(true),
  /** Seconds without a request after which the resident process exits by itself. @default 900 */
  idle_seconds: positive().default(900),
});

/** The whole of `engram.toml`. Every section may be left out. */
export const ConfigSchema = z.strictObject({
  store: StoreSchema.prefault({}),
  embedding: EmbeddingSchema.prefault({}),
  retrieval: RetrievalSchema.prefault({}),
  memory: MemorySchema.prefault({}),
  auto_recall: AutoRecallSchema.prefault({}),
  working_set: WorkingSetSchema.prefault({}),
  solutions: SolutionsSchema.prefault({}),
  context: ContextSchema.prefault({}),
  graph: GraphSchema.prefault({}),
  daemon: DaemonSchema.prefault({}),
});

/** A complete, validated configuration. */
export type EngramConfig = z.output<typeof ConfigSchema>;

/** What a caller may pass: any part of the file's shape, the rest defaulted. */
export type ConfigInput = z.input<typeof ConfigSchema>;
