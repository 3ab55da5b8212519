import { describe, expect, it } from 'vitest';

import { asksWhen } from './asks-when.js';

describe('asksWhen', () => {
  it.each([
    'When did Nina go to the support group?',
    'what year did Theo move to Dublin?',
    'How long ago did Maya start painting?',
    'Which month was the concert?',
  ])('hears a question about time in %j', (question) => {
    expect(asksWhen(question)).toBe(true);
  });

  it.each(['What did Theo do last week?', 'Where does Alice work?', 'Whenever Nina calls, who answers?'])(
    'hears none in %j',
    (question) => {
      expect(asksWhen(question)).toBe(false);
    },
  );
});
