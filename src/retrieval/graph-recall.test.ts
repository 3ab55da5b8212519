import { describe, expect, it } from 'vitest';

import type { Entity } from '../model/graph.js';
import { GRAPH_BOOST, partOf, type QueryGraph } from './graph-recall.js';

const entity = (id: string, name: string, type = 'person'): Entity => ({
  tenant: 't',
  id,
  name,
  type,
  aliases: [],
  observations: [],
  origin: 'extracted',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

/** The query names Caroline; a relation ties her to the support group. */
const graph = (asksWhen = false): QueryGraph => ({
  named: new Map([['caroline', entity('caroline', 'Caroline')]]),
  hops: new Map([['group', 'Caroline']]),
  asksWhen,
  asksWhere: false,
  days: null,
});
const entities = new Map([
  ['group', entity('group', 'support group', 'thing')],
  ['may7', entity('may7', '2023-05-07', 'date')],
  ['week', entity('week', '2023-05-01..2023-05-07', 'date')],
  ['melanie', entity('melanie', 'Melanie')],
  ['miami', entity('miami', 'Miami', 'place')],
]);
/** The question pins 8 May 2023; a day either side counts as on it. */
const pinned = (question: Partial<QueryGraph> = {}): QueryGraph => ({
  ...graph(),
  days: { named: { start: '2023-05-08', end: '2023-05-08' }, within: { start: '2023-05-07', end: '2023-05-09' } },
  ...question,
});
const said = (id: string) => ({ entityId: id, role: 'speaker' });
const named = (id: string) => ({ entityId: id, role: 'mention' });

describe('partOf: the path from a query to one memory', () => {
  it.each([
    ['said by the named person', [said('caroline')], GRAPH_BOOST.about, 'Caroline'],
    ['about the named person as subject', [{ entityId: 'caroline', role: 'subject' }], GRAPH_BOOST.about, 'Caroline'],
    ['naming the person with nobody speaking', [named('caroline')], GRAPH_BOOST.about, 'Caroline'],
    ['naming an entity one hop away', [named('group')], GRAPH_BOOST.hop, 'Caroline → support group'],
    [
      'the person said it and it names the hop: the stronger path only',
      [said('caroline'), named('group')],
      GRAPH_BOOST.about,
      'Caroline',
    ],
    ['naming nothing the query leads to', [said('melanie')], 0, null],
    ['no mentions at all', [], 0, null],
  ])('%s', (_, mentions, boost, via) => {
    expect(partOf(graph(), mentions, entities)).toMatchObject({ boost, via });
  });

  it('says which paths reached the memory: about a named entity, a date for a question about time', () => {
    expect(partOf(graph(true), [said('caroline'), named('may7')], entities)).toMatchObject({ about: true, dated: true });
    expect(partOf(graph(false), [said('caroline'), named('may7')], entities)).toMatchObject({ about: true, dated: false });
    expect(partOf(graph(true), [named('group'), named('may7')], entities)).toMatchObject({ about: false, dated: true });
    expect(partOf(graph(), [said('melanie')], entities)).toMatchObject({ about: false, dated: false });
  });

  it('gives a turn by someone else that names the person nothing: it is addressed to them, not about them', () => {
    expect(partOf(graph(), [said('melanie'), named('caroline')], entities)).toMatchObject({ boost: 0, via: null });
  });

  it('adds a resolved date on the path when the question asks when', () => {
    const mentions = [said('caroline'), named('may7')];
    expect(partOf(graph(true), mentions, entities)).toMatchObject({
      boost: GRAPH_BOOST.about + GRAPH_BOOST.time,
      via: 'Caroline → 2023-05-07',
    });
    // Not for a question about something else, and not for a date on no path.
    expect(partOf(graph(false), mentions, entities)).toMatchObject({ boost: GRAPH_BOOST.about, via: 'Caroline' });
    expect(partOf(graph(true), [said('melanie'), named('may7')], entities)).toMatchObject({ boost: 0, via: null });
  });

  it('never treats a date as a hop, even when a relation reaches it', () => {
    const toDate: QueryGraph = { ...graph(), hops: new Map([['may7', 'Caroline']]) };
    expect(partOf(toDate, [named('may7')], entities)).toMatchObject({ boost: 0, via: null });
  });

  it.each([
    ['occurred on the day', [said('melanie')], '2023-05-08T21:00:00.000Z', true],
    ['occurred the day after (within a day of it)', [said('melanie')], '2023-05-09T01:00:00.000Z', true],
    ['occurred two days before', [said('melanie')], '2023-05-06T12:00:00.000Z', false],
    ['occurred two days before but names the day before', [said('melanie'), named('may7')], '2023-05-05T12:00:00.000Z', true],
    ['names a week that holds the day before', [named('week')], '2023-04-01T12:00:00.000Z', true],
    ['occurred on no known day and names none', [said('caroline')], undefined, false],
  ] as const)('sets a memory that %s on the pinned day, whoever said it: %s', (_, mentions, occurredAt, onDay) => {
    const part = partOf(pinned(), mentions, entities, occurredAt);
    expect(part.onDay).toBe(onDay);
    if (onDay) expect(part.via).toMatch(/(^|; )on 2023-05-08$/);
  });

  it('puts nothing on a day when the question pins none', () => {
    expect(partOf(graph(), [said('caroline')], entities, '2023-05-08T12:00:00.000Z')).toMatchObject({
      onDay: false,
      via: 'Caroline',
    });
  });

  it('names the day after the other paths, and adds nothing to the raw score for it', () => {
    expect(partOf(pinned(), [said('caroline')], entities, '2023-05-08T12:00:00.000Z')).toMatchObject({
      boost: GRAPH_BOOST.about,
      via: 'Caroline; on 2023-05-08',
      onDay: true,
    });
  });

  it.each([
    ['said by the named person and naming a place', true, [said('caroline'), named('miami')], true, 'Caroline → Miami'],
    ['naming a place but said by someone else', true, [said('melanie'), named('miami')], false, null],
    ['said by the named person, naming no place', true, [said('caroline'), named('group')], false, 'Caroline'],
    ['naming a place, for a question not about a place', false, [said('caroline'), named('miami')], false, 'Caroline'],
  ] as const)('places a memory %s: %s', (_, asksWhere, mentions, placed, via) => {
    expect(partOf({ ...graph(), asksWhere }, mentions, entities)).toMatchObject({
      placed,
      via,
      boost: via === null ? 0 : GRAPH_BOOST.about,
    });
  });
});
