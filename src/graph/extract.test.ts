import { describe, expect, it } from 'vitest';

import { extractGraph, MAX_EXTRACTION_CHARS, prepareText } from './extract.js';
import type { ExtractionInput } from './extraction.js';

const AT = '2024-03-13T10:00:00Z'; // a Wednesday
const extract = (text: string, more: Partial<ExtractionInput> = {}) => extractGraph({ text, occurredAt: AT, ...more });
const names = (text: string, more: Partial<ExtractionInput> = {}) =>
  extract(text, more).entities.map((e) => `${e.role === 'speaker' ? '@' : ''}${e.name}:${e.type}`);

describe('extractGraph: the speaker', () => {
  it.each([
    ['Nina said, "We finally fixed the boiler."', undefined, ['@Nina:person']],
    ['We finally fixed the boiler.', 'Nina', ['@Nina:person']],
    ['We finally fixed the boiler.', 'assistant', []],
    ['We finally fixed the boiler.', 'user', []],
    ['Nina said, "Theo fixed the boiler."', 'Ruth', ['@Ruth:person', 'Theo:person']],
    ['Nina said, "Nina is my name."', undefined, ['@Nina:person']],
  ])('finds the speaker of %j (speaker field %j)', (text, speaker, expected) => {
    expect(names(text, { speaker })).toEqual(expected);
  });

  it('relates the speaker to each entity the turn names', () => {
    expect(extract('Theo and I walked around Dublin.', { speaker: 'Nina' }).relations).toEqual([
      { type: 'talks_about', from: 'Nina', to: 'Theo' },
      { type: 'talks_about', from: 'Nina', to: 'Dublin' },
    ]);
    expect(extract('Theo walked around Dublin.').relations).toEqual([]);
  });
});

describe('extractGraph: named entities', () => {
  it.each([
    ['Theo moved to Dublin to work for Google.', ['Theo:person', 'Dublin:place', 'Google:organization']],
    ["Alice's favourite editor is Neovim.", ['Alice:person', 'Neovim:thing']],
    ["We stayed at my brother Paul's flat.", ['Paul:person']],
    ['Maria Gonzalez joined the team.', ['Maria Gonzalez:person']],
    ['The exhibition at the Tate Modern was busy.', ['Tate Modern:thing']],
    ['Always run the linter before committing.', []],
    ['We celebrated Dad and Mom on Sunday, June 18.', []],
    ["I'm still figuring it out, but I've been thinking and I'd love it with Mel.", ['Mel:person']],
  ])('finds the entities of %j', (text, expected) => {
    expect(names(text)).toEqual(expected);
  });

  it('names a titled person without the title and keeps the titled form as an alias', () => {
    expect(extract('My dentist, Dr. Okafor, moved her practice.').entities).toEqual([
      { name: 'Okafor', type: 'person', role: 'mention', aliases: ['Dr. Okafor'] },
    ]);
  });
});

describe('extractGraph: words that only look like names', () => {
  it.each([
    ['May I ask what time it is?', []],
    ['It was fun. Im so happy, but They said no.', []],
    ['What a day! So we left.', []],
    ['Also, I bought a Tesla in March.', ['Tesla:thing']],
    ['We use GitHub at the US office.', ['GitHub:organization', 'US:place']],
    ['Die Datenbank Backups laufen jeden Sonntag um 3 Uhr.', []],
    ['Das Meeting ist um 10 Uhr im Büro.', []],
    ['Am Montag treffe ich Anna in Berlin.', ['Anna:person', 'Berlin:place']],
    ['Lundi, nous allons à Paris avec Marie.', ['Paris:place', 'Marie:person']],
    ['Domingo fuimos a Madrid con Carlos.', ['Madrid:place', 'Carlos:person']],
  ])('finds in %j only %j', (text, expected) => {
    expect(names(text)).toEqual(expected);
  });
});

describe('extractGraph: dates resolved against occurredAt', () => {
  it.each([
    ['I went to the lake yesterday.', '2024-03-12', '2024-03-12', 'day'],
    ['The flight is tomorrow.', '2024-03-14', '2024-03-14', 'day'],
    ['We met two days ago.', '2024-03-11', '2024-03-11', 'day'],
    ['Two days ago we met.', '2024-03-11', '2024-03-11', 'day'],
    ['I started a new job last week.', '2024-03-04', '2024-03-10', 'week'],
    ['I visited her two weeks ago.', '2024-02-26', '2024-03-03', 'week'],
    ['We are moving next month.', '2024-04-01', '2024-04-30', 'month'],
    ['I graduated in 2022.', '2022-01-01', '2022-12-31', 'year'],
    ['We hiked last Saturday.', '2024-03-09', '2024-03-09', 'day'],
    ['The freeze lasts until January 8, 2025.', '2025-01-08', '2025-01-08', 'day'],
    ['We moved to Lyon in March 2021.', '2021-03-01', '2021-03-31', 'month'],
  ])('resolves the date in %j', (text, start, end, grain) => {
    expect(extract(text).dates).toEqual([expect.objectContaining({ start, end, grain })]);
  });

  it.each([
    ['I have been learning Spanish for three months now.'],
    ['Meet me at 10am.'],
    ['I prefer morning meetings.'],
    ['No dates here.'],
  ])('reports no date for %j', (text) => {
    expect(extract(text).dates).toEqual([]);
  });

  it('resolves nothing relative when occurredAt is not a date', () => {
    expect(extract('I went to Dublin yesterday.', { occurredAt: 'not a date' }).dates).toEqual([]);
  });
});

describe('extractGraph: dates written in numbers with the year last', () => {
  // A dotted date is day first wherever it is written so; a slashed one keeps month first unless it cannot be.
  it.each([
    ['We meet on 10.01.2024 at noon.', '2024-01-10', '2024-01-10'],
    ['On 05.01.2024 I went home.', '2024-01-05', '2024-01-05'],
    ['It was 10.1.2024, a Wednesday.', '2024-01-10', '2024-01-10'],
    ['I was there 21.01.2024.', '2024-01-21', '2024-01-21'],
    ['The course runs from 10.01.2024 to 15.01.2024.', '2024-01-10', '2024-01-15'],
    ['The deadline is 10/01/2024.', '2024-10-01', '2024-10-01'],
    ['The deadline is 21/01/2024.', '2024-01-21', '2024-01-21'],
    ['The deadline is 2024-01-10.', '2024-01-10', '2024-01-10'],
  ])('reads %j as %s–%s', (text, start, end) => {
    expect(extract(text).dates).toEqual([expect.objectContaining({ start, end })]);
  });

  it('reads each of two dotted dates day first', () => {
    expect(extract('We met on 10.01.2024 and 12.01.2024.').dates.map((d) => d.start)).toEqual(['2024-01-10', '2024-01-12']);
  });
});

describe('extractGraph: odd input', () => {
  it.each([[''], ['   '], ['\u0000\u0000'], ['🎉🎉🎉'], ['!!!???'], ['"'], ['said, "']])('finds nothing in %j', (text) => {
    expect(extract(text)).toEqual({ entities: [], relations: [], dates: [] });
  });

  it('reads past NUL characters and emoji', () => {
    expect(names('Theo\u0000 flew to Dublin 🎉 yesterday')).toEqual(['Theo:person', 'Dublin:place']);
  });

  it('cuts a huge text before parsing, so its time is bounded', () => {
    const huge = 'Theo flew to Dublin yesterday and loved it. '.repeat(2_500); // ~110 kB
    expect(prepareText(huge).length).toBeLessThanOrEqual(MAX_EXTRACTION_CHARS);
    const started = performance.now();
    const found = extract(huge);
    expect(performance.now() - started).toBeLessThan(5_000); // generous: a shared 2-core machine
    expect(found.entities.map((e) => e.name)).toEqual(['Theo', 'Dublin']);
  });
});
