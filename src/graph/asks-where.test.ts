import { describe, expect, it } from 'vitest';

import { asksWhere } from './asks-where.js';

describe('asksWhere', () => {
  it.each([
    'Where was Elise on 31 Dec 2023?',
    'where does Kevin study?',
    'Which country did Elise visit in winter 2021 - 2022?',
    'What cities did Elise visit during her holidays?',
    'In which city does Paola live?',
    'To what places has Kate travelled?',
    'Which destinations is Kate considering?',
    'Which state does Kevin live in?',
    'What states has Kate driven through?',
  ])('hears a question about a place in %j', (question) => {
    expect(asksWhere(question)).toBe(true);
  });

  it.each([
    'When did Elise go to Miami?',
    'What did Kevin watch on 10.01.2024?',
    'Whereas Kate likes tea, what does Elise drink?',
    'What does Kate like about the city?',
    'Which team does Kevin support?',
    'What state of mind was Caroline in?',
    'What state of affairs did Nate describe?',
  ])('hears none in %j', (question) => {
    expect(asksWhere(question)).toBe(false);
  });
});
