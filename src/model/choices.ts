/**
 * Lists of choices that configuration and code both name — defined once, here at the bottom
 * of the layers, so `config/` reads them from where they are defined instead of repeating
 * them, and the code that acts on a choice imports the same list.
 */

/** Seed 001's decay functions for the retrieval cooldown, plus `none`. */
export const COOLDOWN_DECAYS = ['none', 'binary', 'exponential', 'linear'] as const;
export type CooldownDecay = (typeof COOLDOWN_DECAYS)[number];

/** Seed 004: the ways solved-task goals can be compared; `[solutions] similarity` picks the default. */
export const SOLUTION_SIMILARITIES = ['keyword', 'semantic', 'hybrid'] as const;
export type SolutionSimilarity = (typeof SOLUTION_SIMILARITIES)[number];

/** Where embeddings come from: the local model, an OpenAI-compatible server, or none (lexical only). */
export const EMBEDDING_PROVIDERS = ['local', 'openai', 'none'] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];
