import { describe, expect, it } from 'vitest';

import { namesSpeaker } from './names-speaker.js';

describe('namesSpeaker', () => {
  it('finds a speaker named in the question, case and possessive aside', () => {
    expect(namesSpeaker("What is elise's favorite vacation?", ['Emi', 'Elise'])).toBe(true);
    expect(namesSpeaker('When did Kevin visit the math class?', ['Kevin', 'Paola'])).toBe(true);
  });

  it('needs the whole name, word by word and in order', () => {
    expect(namesSpeaker('Where did Elisenda go?', ['Elise'])).toBe(false);
    expect(namesSpeaker('What did Fahim say?', ['Fahim Khan'])).toBe(false);
    expect(namesSpeaker('What did Fahim Khan say?', ['Fahim Khan'])).toBe(true);
    expect(namesSpeaker('What did Khan Fahim say?', ['Fahim Khan'])).toBe(false);
  });

  it('names nobody when no speaker is in the question or there are no speakers', () => {
    expect(namesSpeaker('What are Kate’s hobbies?', ['Kevin', 'Paola'])).toBe(false);
    expect(namesSpeaker('Who is Caroline?', [])).toBe(false);
    expect(namesSpeaker('Who is Caroline?', ['', '  '])).toBe(false);
  });
});
