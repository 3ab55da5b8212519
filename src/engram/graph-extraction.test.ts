import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import type { Extraction } from '../graph/extraction.js';
import { dateName, isExtracted, toGraphExtraction } from './graph-extraction.js';

const ids = () => {
  let next = 0;
  return () => `id${next++}`;
};

describe('toGraphExtraction', () => {
  const memory = makeMemory({ id: 'm1', occurredAt: '2023-05-08T10:00:00.000Z' });

  it('maps entities, their roles, dates and the speaker’s relations onto the store’s records', () => {
    const extraction: Extraction = {
      entities: [
        { name: 'Caroline', type: 'person', role: 'speaker' },
        { name: 'Boston', type: 'place', role: 'mention', aliases: ['Beantown'] },
      ],
      relations: [{ type: 'talks_about', from: 'Caroline', to: 'Boston' }],
      dates: [{ text: 'last week', start: '2023-05-01', end: '2023-05-07', grain: 'week' }],
    };
    expect(toGraphExtraction(memory, extraction, ids())).toEqual({
      memoryId: 'm1',
      entities: [
        { id: 'id0', name: 'Caroline', type: 'person', aliases: [] },
        { id: 'id1', name: 'Boston', type: 'place', aliases: ['Beantown'] },
        { id: 'id2', name: '2023-05-01..2023-05-07', type: 'date' },
      ],
      mentions: [
        { name: 'Caroline', role: 'speaker' },
        { name: 'Boston', role: 'mention' },
        { name: '2023-05-01..2023-05-07', role: 'mention' },
      ],
      relations: [{ id: 'id3', from: 'Caroline', to: 'Boston', type: 'talks_about', validFrom: '2023-05-08T10:00:00.000Z' }],
    });
  });

  it('drops a relation naming an entity the memory does not have, so the write cannot fail on it', () => {
    const extraction: Extraction = {
      entities: [{ name: 'Boston', type: 'place', role: 'mention' }],
      relations: [{ type: 'talks_about', from: 'Someone', to: 'boston' }],
      dates: [],
    };
    expect(toGraphExtraction(memory, extraction, ids()).relations).toEqual([]);
  });

  it('names a day by itself and a range by its ends', () => {
    expect(dateName('2023-05-07', '2023-05-07')).toBe('2023-05-07');
    expect(dateName('2023-05-01', '2023-05-07')).toBe('2023-05-01..2023-05-07');
  });

  it('extracts live memories of every kind but the working set and the scratchpad', () => {
    expect(isExtracted(makeMemory({ id: 'a', kind: 'fact' }))).toBe(true);
    expect(isExtracted(makeMemory({ id: 'b', kind: 'working_set' }))).toBe(false);
    expect(isExtracted(makeMemory({ id: 'c', kind: 'scratchpad' }))).toBe(false);
    expect(isExtracted(makeMemory({ id: 'd', archivedAt: '2024-01-01T00:00:00.000Z' }))).toBe(false);
    expect(isExtracted(makeMemory({ id: 'e', supersededBy: 'f' }))).toBe(false);
  });
});
