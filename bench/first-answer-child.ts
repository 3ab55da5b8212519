/**
 * The child process of `bench footprint`'s first-answer figure: opens an existing store file,
 * runs one vector search with the query vector it is given (and reads the hits' memories), and
 * prints one JSON line: how long each step took since the process started, and what the process
 * holds then. With `--model` it loads the local embedder first and embeds one query, so the
 * figures include what the model holds.
 *
 * Usage: node first-answer-child.js FILE VECTOR_BASE64 [--model]
 */
import { readFileSync } from 'node:fs';

const started = performance.now(); // since the process started: performance's origin
const [file, encoded, flag] = process.argv.slice(2);
if (file === undefined || encoded === undefined) throw new Error('usage: first-answer-child FILE VECTOR_BASE64 [--model]');
const bytes = Buffer.from(encoded, 'base64');
const vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);

let modelMs: number | null = null;
if (flag === '--model') {
  const { createLocalEmbedder } = await import('engram');
  const at = performance.now();
  await createLocalEmbedder().embed(['load the model and embed one query']);
  modelMs = performance.now() - at;
}
const imported = performance.now();
const { openSqliteStore } = await import('engram/sqlite');
const store = openSqliteStore(file, { mustExist: true });
const beforeSearch = performance.now();
const hits = await store.searchVector({ tenant: 'default' }, vector, 10);
const memories = await store.getMemories(
  'default',
  hits.map((hit) => hit.id),
);
const answered = performance.now();
const memory = process.memoryUsage();
const status = readFileSync('/proc/self/status', 'utf8');
const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
process.stdout.write(
  `${JSON.stringify({
    hits: memories.length,
    firstId: hits[0]?.id ?? null,
    startMs: started,
    modelMs,
    openMs: beforeSearch - imported,
    searchMs: answered - beforeSearch,
    sinceStartMs: answered,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    arrayBuffers: memory.arrayBuffers,
    rssAnon: kib('RssAnon'),
    rssFile: kib('RssFile'),
  })}\n`,
);
await store.close();
