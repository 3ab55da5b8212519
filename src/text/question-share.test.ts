import { describe, expect, it } from 'vitest';

import { questionShare } from './question-share.js';

describe('questionShare: how much of a text asks', () => {
  it('is 1 for a question, 0 for a statement', () => {
    expect(questionShare('What is her name?')).toBe(1);
    expect(questionShare('Her name is Shadow.')).toBe(0);
  });

  it('counts the questions among the sentences', () => {
    expect(questionShare('I got a puppy! Her name is Coco. Do you have pets?')).toBeCloseTo(1 / 3, 12);
    expect(questionShare('Is it new? Where did you get it?')).toBe(1);
  });

  it('sees a question inside closing quotes or brackets', () => {
    expect(questionShare('John said, "Wow! What is her name?" [shares a photo of a dog]')).toBeCloseTo(1 / 3, 12);
    expect(questionShare('(Did she call?) She did.')).toBe(0.5);
  });

  it('ignores a question mark that ends no sentence', () => {
    expect(questionShare('The pattern a?b matches ab and b.')).toBe(0);
  });

  it('is 0 for an empty text', () => {
    expect(questionShare('')).toBe(0);
    expect(questionShare('   ')).toBe(0);
  });
});
