/**
 * Shared set-up for the activation tests: an engine on a real SQLite file with the real local
 * embedding model (loaded once per process, never closed by an engine), a manual clock, and
 * readers for what a receipt says about one memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { ConfigInput } from '../src/config/schema.js';
import type { Embedder } from '../src/embedding/embedder.js';
import { createLocalEmbedder } from '../src/embedding/local-use-embedder.js';
import { type Engram, openEngram } from '../src/engram/engram.js';
import { manualClock } from '../src/model/clock.js';
import type { Receipt, ReceiptEntry } from '../src/model/receipt.js';
import { afterThisFile } from './fixtures/cleanups.js';

const model = createLocalEmbedder();
/** The local model, shared: engines' `close` leaves it loaded for the next test. */
export const sharedEmbedder: Embedder = { id: model.id, dimensions: model.dimensions, embed: (texts) => model.embed(texts) };

let directory: string | undefined;
let files = 0;
/** A path for a new database file in the running test file's temporary directory. */
export function freshDatabase(): string {
  if (directory === undefined) {
    const made = mkdtempSync(path.join(tmpdir(), 'engram-activation-'));
    directory = made;
    afterThisFile(() => {
      rmSync(made, { recursive: true, force: true });
      directory = undefined;
    });
  }
  files += 1;
  return path.join(directory, `engram-${files}.db`);
}

/** An engine on a new database file, a manual clock starting 2026-03-02 09:00 UTC, and `config`. */
export async function openTestEngram(config: ConfigInput = {}, file = freshDatabase()) {
  const clock = manualClock('2026-03-02T09:00:00.000Z');
  const engram: Engram = await openEngram({ path: file, config, clock, embedder: sharedEmbedder });
  return { engram, clock, file };
}

/** The receipt's entry for `id`, among chosen or left-out memories. */
export function entryFor(receipt: Receipt | null, id: string): ReceiptEntry | undefined {
  return [...(receipt?.chosen ?? []), ...(receipt?.leftOut ?? [])].find((entry) => entry.id === id);
}

/** Ids chosen for the hot lane. */
export function hotIds(receipt: Receipt | null): string[] {
  return (receipt?.chosen ?? []).filter((entry) => entry.lane === 'hot').map((entry) => entry.id);
}
