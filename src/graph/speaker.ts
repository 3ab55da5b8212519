/**
 * The speaker of a conversation turn: the `speaker` field when it names a person, or the
 * `Name said, "..."` form Engram's benchmarks and imports store turns in. Unwrapping that form
 * also hands the parser the quoted words alone, so "said" and the speaker's name are not read
 * as part of what was said.
 */

/** Speaker values that name a role, not a person. */
const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'tool', 'agent', 'model', 'human', 'ai', 'bot']);

// One to four capitalised words, "said" (optionally a comma), then the quoted turn.
const SAID_FORM = /^\s*(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3})\s+said,?\s*["“]([\s\S]*?)["”]?\s*$/u;

/** A turn split into its speaker (if a person) and the words to analyse. */
export interface SpeakerSplit {
  speaker: string | undefined;
  body: string;
}

/** Whether `speaker` is a person's name rather than a role such as "assistant". */
export function isPersonSpeaker(speaker: string | undefined): speaker is string {
  const name = speaker?.trim();
  return Boolean(name) && !ROLES.has(name!.toLowerCase());
}

/** Finds the speaker of `text` (the field wins over the `Name said, "..."` form) and the body to parse. */
export function splitSpeaker(text: string, speaker?: string): SpeakerSplit {
  const match = SAID_FORM.exec(text);
  const field = isPersonSpeaker(speaker) ? speaker.trim() : undefined;
  if (!match) return { speaker: field, body: text };
  return { speaker: field ?? match[1], body: match[2] ?? '' };
}
