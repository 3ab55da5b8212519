/**
 * What Engram knows of the languages an embedder reads, for `engram stats`: the built-in model
 * reads English only (its vocabulary has no CJK characters or emoji; local-vocabulary.ts), so
 * text in other languages is found by its words and characters, not by its meaning, and the way
 * to search it by meaning is a multilingual model behind `[embedding] provider = "openai"`. Of
 * other embedders Engram knows nothing.
 */
import { LOCAL_EMBEDDER_ID } from './local-use-embedder.js';

/** The languages an embedder reads, and what to do for the others. */
export interface EmbedderLanguages {
  /** In words, e.g. "English only". */
  reads: string;
  /** How text in other languages is searched, and how to search it by meaning too. */
  otherLanguages: string;
}

/** What the embedder with this id reads, or null when Engram does not know. */
export function embedderLanguages(embedderId: string): EmbedderLanguages | null {
  if (embedderId !== LOCAL_EMBEDDER_ID) return null;
  return {
    reads: 'English only',
    otherLanguages:
      'other languages and emoji are found by their words and characters, not by meaning. For meaning, set [embedding] ' +
      'provider = "openai" with a multilingual model (text-embedding-3-small; or bge-m3 on Ollama, base_url = ' +
      '"http://127.0.0.1:11434/v1") and run engram reindex (docs/storage-and-embeddings.md#other-languages)',
  };
}
