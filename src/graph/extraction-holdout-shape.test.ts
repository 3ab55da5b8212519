/**
 * The held-out extraction sample (test/fixtures/extraction-holdout.json) has the shape the scorer
 * reads and the mix it was written with. Only its shape is checked here: the sample is for
 * measuring the extractor (`engram bench extraction --data`), never for a test floor to tune to.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import type { EntityType } from './extraction.js';
import type { LabelledMemory } from './extraction-score.js';

const HOLDOUT = new URL('../../test/fixtures/extraction-holdout.json', import.meta.url);
const { about, items } = JSON.parse(readFileSync(HOLDOUT, 'utf8')) as { about: string; items: LabelledMemory[] };

const TYPES: readonly EntityType[] = ['person', 'place', 'organization', 'thing'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The ids' ranges, as the sample's "about" names them. */
const CATEGORIES = { chat: [1, 40], agent: [41, 70], languages: [71, 100], negatives: [101, 120] } as const;

const numberOf = (item: LabelledMemory): number => Number(item.id.slice(1));
const inCategory = (name: keyof typeof CATEGORIES): LabelledMemory[] =>
  items.filter((item) => numberOf(item) >= CATEGORIES[name][0] && numberOf(item) <= CATEGORIES[name][1]);
const isDay = (value: string): boolean => DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

describe('the held-out extraction sample', () => {
  it('says it is held out and has 120 memories numbered h001 to h120', () => {
    expect(about).toMatch(/held-out/);
    expect(about).toMatch(/never used to tune/);
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: 120 }, (_, i) => `h${String(i + 1).padStart(3, '0')}`));
  });

  it('gives every memory a text, a UTC occurredAt, and entity and date lists', () => {
    for (const item of items) {
      expect(typeof item.text, item.id).toBe('string');
      expect(item.text.trim(), item.id).not.toBe('');
      expect(item.occurredAt, item.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Number.isNaN(Date.parse(item.occurredAt)), item.id).toBe(false);
      if (item.speaker !== undefined) expect(typeof item.speaker, item.id).toBe('string');
      expect(Array.isArray(item.entities), item.id).toBe(true);
      expect(Array.isArray(item.dates), item.id).toBe(true);
    }
  });

  it('labels entities with a known type, and names or aliases that the text or speaker holds', () => {
    for (const item of items) {
      const text = item.text.toLowerCase();
      for (const entity of item.entities) {
        const where = `${item.id} ${entity.name}`;
        expect(TYPES, where).toContain(entity.type);
        if (entity.types) {
          expect(entity.types, where).toContain(entity.type);
          for (const type of entity.types) expect(TYPES, where).toContain(type);
        }
        if (entity.aliases) for (const alias of entity.aliases) expect(alias.trim(), where).not.toBe('');
        if (entity.role !== undefined) expect(entity.role, where).toBe('speaker');
        const spellings = [entity.name, ...(entity.aliases ?? [])].map((name) => name.toLowerCase());
        if (entity.role !== 'speaker')
          expect(
            spellings.some((name) => text.includes(name)),
            where,
          ).toBe(true);
      }
    }
  });

  it('marks the named speaker of a turn, and never a role such as user or assistant', () => {
    for (const item of items) {
      const speakers = item.entities.filter((entity) => entity.role === 'speaker');
      if (item.speaker === undefined || item.speaker === 'user' || item.speaker === 'assistant') {
        expect(speakers, item.id).toEqual([]);
      } else {
        expect(
          speakers.map((entity) => entity.name),
          item.id,
        ).toEqual([item.speaker]);
        expect(speakers[0]?.type, item.id).toBe('person');
      }
    }
  });

  it('labels dates with words from the text and an inclusive range of calendar days', () => {
    for (const item of items) {
      for (const date of item.dates) {
        const where = `${item.id} ${date.text}`;
        expect(item.text.toLowerCase(), where).toContain(date.text.toLowerCase());
        expect(isDay(date.start), where).toBe(true);
        expect(isDay(date.end), where).toBe(true);
        expect(date.start <= date.end, where).toBe(true);
      }
    }
  });

  it('holds 40 chat messages, 30 agent memories, 30 other-language texts and 20 hard negatives', () => {
    const chat = inCategory('chat');
    const negatives = inCategory('negatives');
    expect(chat).toHaveLength(40);
    expect(inCategory('agent')).toHaveLength(30);
    expect(inCategory('languages')).toHaveLength(30);
    expect(negatives).toHaveLength(20);
    // chat messages are turns with a speaker; hard negatives name at most one real entity
    for (const item of chat) expect(item.speaker, item.id).toBeDefined();
    for (const item of negatives) expect(item.entities.length, item.id).toBeLessThanOrEqual(1);
    expect(negatives.filter((item) => item.entities.length === 0 && item.dates.length === 0).length).toBeGreaterThanOrEqual(10);
  });
});
