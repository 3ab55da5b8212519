/**
 * Extraction is best effort, with a real SQLite file: a memory is stored whatever extraction
 * makes of it. A date the extractor cannot hold is dropped; a failing extractor (injected here,
 * as no real input is known to make the offline one throw any more) or an extraction the store
 * refuses is recorded, counted by `stats`, told by `doctor` and the activity log, and retried
 * by `reindex`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { doctorDatabase } from '../src/entries/maintenance.js';
import { extractGraph } from '../src/graph/extract.js';
import type { Extraction, ExtractionInput } from '../src/graph/extraction.js';
import { type Engram, manualClock, openEngram } from '../src/index.js';
import { makeMemory } from './fixtures/memory.js';

const ANCIENT = 'Writing emerged about 6000 years ago.';

describe('extraction never fails a write', () => {
  let dir: string;
  let file: string;
  const opened: Engram[] = [];
  const open = async (extractor?: (input: ExtractionInput) => Extraction) => {
    const engram = await openEngram({
      path: file,
      embedder: null,
      clock: manualClock(new Date('2024-03-13T12:00:00Z')),
      ...(extractor ? { extractor } : {}),
    });
    opened.push(engram);
    return engram;
  };
  /** Throws on any text naming "Quokka", as a broken extractor would; reads the rest as usual. */
  const failingOnQuokka = (input: ExtractionInput): Extraction => {
    if (input.text.includes('Quokka')) throw new RangeError('Invalid time value');
    return extractGraph(input);
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-best-effort-'));
    file = path.join(dir, 'engram.db');
  });
  afterEach(async () => {
    for (const engram of opened.splice(0)) await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a sentence whose date is out of range, with no date and no failure', async () => {
    const engram = await open();
    const memory = await engram.remember(ANCIENT);

    expect((await engram.get(memory.id))?.text).toBe(ANCIENT);
    expect(await engram.mentions(memory.id)).toEqual([]);
    expect((await engram.stats()).graph).toMatchObject({ entities: 0, extractionFailures: 0 });
    expect((await engram.search('writing emerged')).map((hit) => hit.memory.id)).toEqual([memory.id]);
  });

  it('imports every record of a file holding such a sentence', async () => {
    const engram = await open();
    const records = [ANCIENT, 'Theo moved to Dublin last May.', 'About 5000 or 6000 years ago the wheel spread.'].map((text, i) =>
      makeMemory({ id: `01J0000000000000000000000${i}`, tenant: 'default', scope: 'default', text }),
    );

    expect(await engram.import(records)).toMatchObject({ imported: 3 });
    expect((await engram.list()).map((memory) => memory.text).sort()).toEqual(records.map((record) => record.text).sort());
    expect((await engram.graph.openNodes(['Dublin'])).entities).toHaveLength(1);
  });

  it('stores a memory its extractor throws on, counts and logs the failure, and reindex extracts it again', async () => {
    const broken = await open(failingOnQuokka);
    const [quokka, theo] = await broken.rememberMany(['Nina saw a Quokka on Rottnest Island.', 'Theo flew to Dublin.']);

    expect((await broken.get(quokka?.id as string))?.text).toBe('Nina saw a Quokka on Rottnest Island.');
    expect(await broken.mentions(theo?.id as string)).toEqual([
      expect.objectContaining({ name: 'Theo' }),
      expect.objectContaining({ name: 'Dublin' }),
    ]);
    expect((await broken.stats()).graph.extractionFailures).toBe(1);
    expect(await broken.activity()).toEqual([
      expect.objectContaining({
        action: 'graph_extraction_failed',
        memoryId: quokka?.id,
        summary: expect.stringContaining('RangeError: Invalid time value'),
      }),
      // The write itself is logged too: both memories were stored.
      expect.objectContaining({ action: 'remember', summary: expect.stringContaining('2 memories') }),
    ]);
    await broken.close();
    const doctor = await doctorDatabase({ path: file, embedder: null });
    expect(doctor.healthy).toBe(true);
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({
        check: 'graph',
        status: 'notice',
        message: expect.stringMatching(/^graph extraction failed for 1 memory \(.+\).*Invalid time value/),
        fix: expect.stringContaining('engram reindex'),
      }),
    );

    const mended = await open();
    expect(await mended.reindex()).toMatchObject({ memories: 2, extractionFailures: 0 });
    expect((await mended.stats()).graph.extractionFailures).toBe(0);
    expect((await mended.mentions(quokka?.id as string)).map((entity) => entity.name)).toEqual([
      'Nina',
      'Quokka',
      'Rottnest Island',
    ]);
  });

  it('records only the memory whose extraction the store refuses, and the others’ graphs', async () => {
    // An entity with a blank name is refused by the store, after the memories are stored.
    const blank = (input: ExtractionInput): Extraction =>
      input.text.startsWith('blank')
        ? { entities: [{ name: '   ', type: 'thing', role: 'mention' }], relations: [], dates: [] }
        : extractGraph(input);
    const engram = await open(blank);
    const [refused, kept] = await engram.rememberMany(['blank name here', 'Theo flew to Dublin.']);

    expect(await engram.list()).toHaveLength(2);
    expect((await engram.mentions(kept?.id as string)).map((entity) => entity.name)).toEqual(['Theo', 'Dublin']);
    expect((await engram.stats()).graph.extractionFailures).toBe(1);
    expect((await engram.activity())[0]).toMatchObject({ memoryId: refused?.id, action: 'graph_extraction_failed' });
  });

  it('clears a failure when the memory is edited and extracted, or forgotten', async () => {
    const engram = await open(failingOnQuokka);
    const one = await engram.remember('A Quokka smiled.');
    const two = await engram.remember('Another Quokka smiled.');
    expect((await engram.stats()).graph.extractionFailures).toBe(2);

    await engram.update(one.id, { text: 'A wallaby smiled at Theo.' });
    await engram.forget(two.id);
    expect((await engram.stats()).graph.extractionFailures).toBe(0);
    expect((await engram.mentions(one.id)).map((entity) => entity.name)).toEqual(['Theo']);
  });
});
