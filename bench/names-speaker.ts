/**
 * Whether a question names one of a conversation's speakers. The calibration check pairs each
 * index with another conversation's questions as unrelated ones, but conversations can share a
 * participant (REALTALK's chats do): a question about a person who also speaks in the index is
 * rightly answered by what that person said there, so `bench locomo` reports those pairs apart
 * from the ones that name nobody in the index.
 */

const WORD = /[\p{L}\p{N}]+/gu;

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((word) => word !== 's');
}

/**
 * True when every word of some speaker's name appears in `question` in order, as whole words
 * and case aside ("Elise" in "What is Elise's favorite vacation?", not in "Elisenda").
 */
export function namesSpeaker(question: string, speakers: Iterable<string>): boolean {
  const asked = wordsOf(question);
  for (const speaker of speakers) {
    const name = wordsOf(speaker);
    if (name.length === 0) continue;
    for (let start = 0; start + name.length <= asked.length; start++) {
      if (name.every((word, i) => asked[start + i] === word)) return true;
    }
  }
  return false;
}
